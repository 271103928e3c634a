// What a stage keeps when its stack goes (Retain): its tables, queues, bucket and webhook secret,
// found by name; deleted only when asked (npm run remove -- --delete-data), each table backed up first.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateBackupCommand,
  DeleteTableCommand,
  DescribeBackupCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import * as S3 from '@aws-sdk/client-s3';
import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  paginateListQueues,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { DeleteParameterCommand, ParameterNotFound, type SSMClient } from '@aws-sdk/client-ssm';
import { declaredWebhookResources, yamlOf } from '../local/paths.ts';

const serverlessYml = () =>
  yamlOf('serverless.yml') as {
    service: string;
    provider: { region: string };
    params: { default: { tableName: string; webhooksTableName: string } };
  };

/** The stage's stack, as osls names it. */
export const stackName = (stage: string) => `${serverlessYml().service}-${stage}`;

/** The region of a stage's commands: --region, else AWS_REGION, else serverless.yml's default. */
export const stageRegion = (region = process.env.AWS_REGION): string => {
  if (region) return region;
  const fallback = /'([a-z0-9-]+)'\}$/.exec(serverlessYml().provider.region)?.[1];
  if (!fallback) throw new Error("serverless.yml's provider.region ends in no default region");
  return fallback;
};

/** The stage's table names, plants then webhooks: serverless.yml's params, resolved for the stage. */
export const tableNames = (stage: string) => {
  const { service, params } = serverlessYml();
  const resolved = (name: string) =>
    // biome-ignore lint/suspicious/noTemplateCurlyInString: serverless.yml's variables, replaced
    name.replace('${self:service}', service).replace('${sls:stage}', stage);
  return [resolved(params.default.tableName), resolved(params.default.webhooksTableName)] as const;
};

type Say = (line: string) => void;
type Clients = { dynamodb: DynamoDBClient; sqs: SQSClient; s3: S3.S3Client; ssm: SSMClient };

export interface StageData {
  tables: { name: string; items: number }[];
  queues: { url: string; messages: number }[];
  buckets: string[];
  /** the operator's webhook secret's SSM parameter, when the stack told it */
  secretParameter?: string;
}

const MESSAGE_COUNTS = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
] as const;

/** What the stage holds now, in the region the clients are of. */
export const findStageData = async (
  stage: string,
  { dynamodb, sqs, s3 }: Omit<Clients, 'ssm'>,
  secretParameter?: string,
): Promise<StageData> => {
  const tables: StageData['tables'] = [];
  for (const name of tableNames(stage)) {
    try {
      const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: name }));
      tables.push({ name, items: Table?.ItemCount ?? 0 });
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
  const prefix = `${stackName(stage)}-`;
  // CloudFormation names a queue <stack>-<its logical id>-<random>, a bucket alike in lowercase
  const idsOf = (type: string) =>
    Object.entries(declaredWebhookResources()).flatMap(([id, r]) => (r.Type === type ? [id] : []));
  const ours = new RegExp(`/${prefix}(${idsOf('AWS::SQS::Queue').join('|')})-[A-Za-z0-9]+$`);
  const bucketOf = new RegExp(`^${prefix}(${idsOf('AWS::S3::Bucket').join('|')})-[a-z0-9]+$`, 'i');
  const listed = { BucketRegion: await s3.config.region() }; // names are global: this region's
  const { Buckets = [] } = await s3.send(new S3.ListBucketsCommand(listed));
  const buckets = Buckets.flatMap(({ Name = '' }) => (bucketOf.test(Name) ? [Name] : []));
  const queues: StageData['queues'] = [];
  const pages = paginateListQueues({ client: sqs }, { QueueNamePrefix: prefix, MaxResults: 1000 });
  for await (const page of pages) {
    for (const url of page.QueueUrls ?? []) {
      if (!ours.test(url)) continue;
      const input = { QueueUrl: url, AttributeNames: [...MESSAGE_COUNTS] };
      const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand(input));
      const messages = Object.values(Attributes).reduce((sum, n) => sum + Number(n), 0);
      queues.push({ url, messages });
    }
  }
  return { tables, queues, buckets, ...(secretParameter ? { secretParameter } : {}) };
};

/** One line per thing kept, for a person to read. */
export const describeStageData = (data: StageData): string[] => [
  ...data.tables.map(({ name, items }) => `table ${name} (about ${items} items)`),
  ...data.queues.map(({ url, messages }) => `queue ${url.split('/').pop()} (${messages} messages)`),
  ...data.buckets.map((name) => `bucket ${name}`),
  ...(data.secretParameter ? [`SSM parameter ${data.secretParameter}`] : []),
];

// An on-demand backup of each table, `<table>-removed-<UTC time>`, said with its restore command;
// waited for (DynamoDB deletes no table while its backup is being made); throws naming the table.
export const backUpTables = async ({ tables }: StageData, dynamodb: DynamoDBClient, say: Say) => {
  const time = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  for (const { name } of tables) {
    try {
      const input = { TableName: name, BackupName: `${name}-removed-${time}` };
      let backup = (await dynamodb.send(new CreateBackupCommand(input))).BackupDetails;
      while (backup?.BackupStatus === 'CREATING') {
        await sleep(2000);
        const describe = new DescribeBackupCommand({ BackupArn: backup.BackupArn });
        backup = (await dynamodb.send(describe)).BackupDescription?.BackupDetails;
      }
      if (backup?.BackupStatus !== 'AVAILABLE')
        throw new Error(`its backup is ${backup?.BackupStatus}`);
      say(
        `  aws dynamodb restore-table-from-backup --region ${await dynamodb.config.region()} --target-table-name ${name} --backup-arn ${backup.BackupArn} --sse-specification-override Enabled=true,SSEType=KMS`,
      );
    } catch (error) {
      throw new Error(`the table ${name} was not backed up: ${(error as Error).message}`);
    }
  }
};

/** Deletes what was kept, tables unprotected and buckets (unversioned) emptied first; says each. */
export const deleteStageData = async (
  data: StageData,
  { dynamodb, sqs, s3, ssm }: Clients,
  say: Say,
) => {
  for (const { name: TableName } of data.tables) {
    await dynamodb.send(new UpdateTableCommand({ TableName, DeletionProtectionEnabled: false }));
    await dynamodb.send(new DeleteTableCommand({ TableName }));
    say(`deleted table ${TableName}`);
  }
  for (const { url } of data.queues) {
    await sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
    say(`deleted queue ${url.split('/').pop()}`);
  }
  for (const Bucket of data.buckets) {
    for await (const { Contents = [] } of S3.paginateListObjectsV2({ client: s3 }, { Bucket }))
      for (const { Key } of Contents) await s3.send(new S3.DeleteObjectCommand({ Bucket, Key }));
    await s3.send(new S3.DeleteBucketCommand({ Bucket }));
    say(`deleted bucket ${Bucket}`);
  }
  if (data.secretParameter) {
    try {
      await ssm.send(new DeleteParameterCommand({ Name: data.secretParameter }));
      say(`deleted SSM parameter ${data.secretParameter}`);
    } catch (error) {
      if (!(error instanceof ParameterNotFound)) throw error;
      say(`SSM parameter ${data.secretParameter} was already gone`);
    }
  }
};
