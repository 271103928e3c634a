// What `npm run remove` finds a stage keeping and deletes with --delete-data: its tables (deletion
// protection lifted first), its queues and bucket (emptied first) as CloudFormation names them and
// the webhook secret, and nothing of another stage; against DynamoDB Local, the local SQS (whose
// fauxqs also speaks S3) and SSM's answer from a local server. And the command itself: refusing to delete data without the stage's name confirmed, a
// protected stage's (prod) on --yes alone, or any table it could not back up first; DynamoDB Local
// has no backups, so they are answered in front of it (test/support/dynamodbBackups.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  ListBucketsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ListQueuesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localClientConfig, localDynamoClient } from '../../infra/local/dynamoClient.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { type LocalSqs, startLocalSqs } from '../../infra/local/sqs.ts';
import {
  deleteStageData,
  describeStageData,
  findStageData,
  tableNames,
} from '../../infra/stage/stageData.ts';
import { startCloudFormationStub } from '../support/cloudFormationStub.ts';
import { backupArnOf, startDynamoDbWithBackups } from '../support/dynamodbBackups.ts';
import { startSsmStub } from '../support/ssmStub.ts';

const stage = `rm${Date.now().toString(36)}`;
const otherStage = `${stage}-2`;
// stages the command removes (its names: up to 10 letters and digits), one whose backup is refused
const removed = `rmx${Date.now().toString(36).slice(-6)}`;
const refused = `rmy${Date.now().toString(36).slice(-6)}`;
const dynamodb = localDynamoClient(inject('dynamodbEndpoint'));
let sqs: LocalSqs;
let s3: S3Client;
// CloudFormation's names of the stream-failure bucket: the stage's, another's, a removed one's
const bucket = `plant-store-${stage}-streamfailurebucket-1ab2cd3ef4gh`;
const othersBucket = `plant-store-${otherStage}-streamfailurebucket-5kl6mn7op8qr`;
const removedBucket = `plant-store-${removed}-streamfailurebucket-9st8uv7wx6yz`;
const deleted: string[] = [];
let ssmServer: Awaited<ReturnType<typeof startSsmStub>>;
let ssm: SSMClient;

const createTable = (name: string) =>
  dynamodb.send(
    new CreateTableCommand({
      TableName: name,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      DeletionProtectionEnabled: true,
    }),
  );

beforeAll(async () => {
  for (const name of [stage, otherStage, removed, refused, 'prod'].flatMap(tableNames))
    await createTable(name);
  sqs = await startLocalSqs({
    dir: mkdtempSync(join(tmpdir(), 'stage-data-')),
    queues: {
      [`plant-store-${stage}-EndpointDeliveryQueue-1AB2CD3EF4GH`]: {},
      [`plant-store-${stage}-WebhookDeadLetterQueue-9ZY8XW7VU6TS`]: {},
      // another stage's, and one no template makes
      [`plant-store-${otherStage}-EndpointDeliveryQueue-5KL6MN7OP8QR`]: {},
      [`plant-store-${stage}-notes`]: {},
    },
  });
  s3 = new S3Client(localClientConfig(sqs.endpoint));
  // the stage's, another's, a removed one's, and one no template makes
  for (const Bucket of [bucket, othersBucket, removedBucket, `plant-store-${stage}-notes`])
    await s3.send(new CreateBucketCommand({ Bucket }));
  // a batch given up, as Lambda writes it (its key)
  const Key = 'aws/lambda/6f5e4d3c/shardId-00000001/2026/11/29/2026-11-29T10.00.00-a1b2c3d4';
  for (const Bucket of [bucket, removedBucket])
    await s3.send(new PutObjectCommand({ Bucket, Key, Body: '{"payload":{}}' }));
  await sqs.client.send(
    new SendMessageCommand({
      QueueUrl: sqs.queueUrl(`plant-store-${stage}-WebhookDeadLetterQueue-9ZY8XW7VU6TS`),
      MessageBody: '{"a":"dead letter"}',
    }),
  );
  ssmServer = await startSsmStub(({ target, input }) => {
    deleted.push(`${target} ${input.Name}`);
    return {};
  });
  ssm = new SSMClient({
    region: 'us-east-1',
    endpoint: ssmServer.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  await sqs.stop();
  await ssmServer.close();
  const others = [otherStage, refused, 'prod']
    .flatMap(tableNames)
    .map((name) => ({ name, items: 0 }));
  await deleteStageData(
    { tables: others, queues: [], buckets: [] },
    { dynamodb, sqs: sqs.client, s3, ssm },
    () => {},
  );
});

describe("a stage's data", () => {
  it('is found by the names the templates give it, with what it holds, and nothing of another stage', async () => {
    const data = await findStageData(
      stage,
      { dynamodb, sqs: sqs.client, s3 },
      '/plant-store/x/secret',
    );
    expect(data.tables.map((table) => table.name)).toEqual(tableNames(stage));
    // by name: SQS answers each queue's URL as it pleases
    expect(data.queues.map(({ url, messages }) => [url.split('/').pop(), messages])).toEqual([
      [`plant-store-${stage}-EndpointDeliveryQueue-1AB2CD3EF4GH`, 0],
      [`plant-store-${stage}-WebhookDeadLetterQueue-9ZY8XW7VU6TS`, 1],
    ]);
    expect(data.buckets).toEqual([bucket]);
    expect(describeStageData(data)).toEqual([
      `table plant-store-${stage}-plants (about 0 items)`,
      `table plant-store-${stage}-webhooks (about 0 items)`,
      `queue plant-store-${stage}-EndpointDeliveryQueue-1AB2CD3EF4GH (0 messages)`,
      `queue plant-store-${stage}-WebhookDeadLetterQueue-9ZY8XW7VU6TS (1 messages)`,
      `bucket ${bucket}`,
      'SSM parameter /plant-store/x/secret',
    ]);
  });

  it('is deleted for good on purpose: tables despite their deletion protection, queues, the bucket with its objects, the secret', async () => {
    const data = await findStageData(
      stage,
      { dynamodb, sqs: sqs.client, s3 },
      '/plant-store/x/secret',
    );
    const said: string[] = [];
    await deleteStageData(data, { dynamodb, sqs: sqs.client, s3, ssm }, (line) => said.push(line));

    const { TableNames = [] } = await dynamodb.send(new ListTablesCommand({}));
    expect(TableNames.filter((name) => name.startsWith(`plant-store-${stage}-`))).toEqual(
      tableNames(otherStage),
    );
    const { QueueUrls = [] } = await sqs.client.send(new ListQueuesCommand({}));
    expect(QueueUrls.map((url) => url.split('/').pop()).sort()).toEqual(
      [
        `plant-store-${otherStage}-EndpointDeliveryQueue-5KL6MN7OP8QR`,
        `plant-store-${stage}-notes`,
      ].sort(),
    );
    const { Buckets = [] } = await s3.send(new ListBucketsCommand({}));
    expect(Buckets.flatMap(({ Name = '' }) => (Name.includes(stage) ? [Name] : [])).sort()).toEqual(
      [othersBucket, `plant-store-${stage}-notes`].sort(),
    );
    expect(deleted).toEqual(['AmazonSSM.DeleteParameter /plant-store/x/secret']);
    expect(said).toHaveLength(6);
    expect(said).toContain(`deleted bucket ${bucket}`);
    expect(await findStageData(stage, { dynamodb, sqs: sqs.client, s3 })).toEqual({
      tables: [],
      queues: [],
      buckets: [],
    });
  });
});

describe('npm run remove', () => {
  const remove = (args: string[], endpoints: Record<string, string> = {}) =>
    promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'infra', 'stage', 'remove.ts'), ...args],
      {
        cwd: repoRoot,
        // no AWS call may be made before the confirmation: none could answer here
        env: { ...process.env, AWS_ENDPOINT_URL: 'http://127.0.0.1:9', ...endpoints },
      },
    ).then(
      ({ stdout }) => ({ code: 0, said: stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        said: `${error.stdout}${error.stderr}`,
      }),
    );

  it('deletes no data unless the stage is named again, or --yes given', async () => {
    expect(await remove(['--stage', 'dev', '--delete-data'])).toEqual({
      code: 1,
      said: "--delete-data deletes the stage's tables and queues for good: add --yes to confirm without a terminal\n",
    });
  });

  it('asks for the stage, and leaves the local one to npm start', async () => {
    expect((await remove([])).said).toMatch(/^--stage is missing\n\nusage: npm run remove/);
    expect((await remove(['--stage', 'local'])).code).toBe(1);
  });

  describe("against the stage's services", () => {
    let dynamodbWithBackups: Awaited<ReturnType<typeof startDynamoDbWithBackups>>;
    let cloudFormation: Awaited<ReturnType<typeof startCloudFormationStub>>;
    // the stacks are gone already (none here): what they kept is what the command deletes; no
    // queues (the local SQS's URLs name a host only its own clients reach: deleted above)
    const endpoints = () => ({
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.url,
      AWS_ENDPOINT_URL_DYNAMODB: dynamodbWithBackups.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      AWS_ENDPOINT_URL_S3: sqs.endpoint,
      AWS_ENDPOINT_URL_SSM: ssmServer.endpoint,
    });
    const tablesLeft = async (of: string) => {
      const { TableNames = [] } = await dynamodb.send(new ListTablesCommand({}));
      return TableNames.filter((name) => name.startsWith(`plant-store-${of}-`));
    };
    const operationsOn = (of: string) =>
      dynamodbWithBackups.operations.filter((line) => line.includes(`plant-store-${of}-`));

    beforeAll(async () => {
      dynamodbWithBackups = await startDynamoDbWithBackups(inject('dynamodbEndpoint'), [
        `plant-store-${refused}-webhooks`,
      ]);
      cloudFormation = await startCloudFormationStub({});
    });
    afterAll(async () => {
      await dynamodbWithBackups.stop();
      await cloudFormation.stop();
    });

    it("never deletes a protected stage's data on --yes: prod without a terminal is refused, nothing touched", async () => {
      expect(await remove(['--stage', 'prod', '--delete-data', '--yes'], endpoints())).toEqual({
        code: 1,
        said: "the stage prod protects its data (serverless.yml, params.prod.protectData): --delete-data deletes it only from a terminal, where you type its name (--yes does not do): run it from one, or set protectData to 'false' first\n",
      });
      expect(dynamodbWithBackups.operations).toEqual([]);
      expect(cloudFormation.requests).toEqual([]);
      expect(await tablesLeft('prod')).toEqual(tableNames('prod'));
    });

    it("deletes an unprotected stage's data on --yes, each table backed up first and its backup named with how to restore it", async () => {
      const { code, said } = await remove(
        ['--stage', removed, '--delete-data', '--yes'],
        endpoints(),
      );
      expect(code, said).toBe(0);
      const [plants, webhooks] = tableNames(removed);
      const backupName = (table: string) =>
        expect.stringMatching(
          new RegExp(`^CreateBackup ${table} ${table}-removed-\\d{8}T\\d{6}Z$`),
        );
      // each backup AVAILABLE (DescribeBackup) before the first table goes: DynamoDB deletes no
      // table while its backup is being made
      expect(operationsOn(removed)).toEqual([
        `DescribeTable ${plants}`,
        `DescribeTable ${webhooks}`,
        backupName(String(plants)),
        `DescribeBackup ${plants}`,
        backupName(String(webhooks)),
        `DescribeBackup ${webhooks}`,
        `UpdateTable ${plants}`,
        `DeleteTable ${plants}`,
        `UpdateTable ${webhooks}`,
        `DeleteTable ${webhooks}`,
      ]);
      const restores = said
        .split('\n')
        .filter((line) => line.includes('aws dynamodb restore-table-from-backup'));
      expect(restores).toEqual(
        [plants, webhooks].map(
          (table) =>
            `  aws dynamodb restore-table-from-backup --region us-east-1 --target-table-name ${table} --backup-arn ${backupArnOf(String(table))} --sse-specification-override Enabled=true,SSEType=KMS`,
        ),
      );
      // named before anything is deleted
      expect(said.indexOf(String(restores[1]))).toBeLessThan(
        said.indexOf(`deleted table ${plants}`),
      );
      expect(said).toContain(`The stage ${removed} is gone, its data too.`);
      expect(await tablesLeft(removed)).toEqual([]);
      expect(said).toContain(`deleted bucket ${removedBucket}`);
      const { Buckets = [] } = await s3.send(new ListBucketsCommand({}));
      expect(Buckets.map(({ Name }) => Name)).not.toContain(removedBucket);
    });

    it('deletes nothing when a table cannot be backed up, saying why and what to do', async () => {
      const { code, said } = await remove(
        ['--stage', refused, '--delete-data', '--yes'],
        endpoints(),
      );
      expect(code).toBe(1);
      const [, webhooks] = tableNames(refused);
      expect(said).toContain(
        `the table ${webhooks} was not backed up: User: arn:aws:sts::123456789012:assumed-role/plant-store-deploy/remove is not authorized to perform: dynamodb:CreateBackup`,
      );
      expect(said).toMatch(
        /\nNo data was deleted: mend that \(the credentials need dynamodb:CreateBackup and dynamodb:DescribeBackup on the stage's tables\) and run npm run remove again\n$/,
      );
      expect(
        operationsOn(refused).filter((line) => /^(UpdateTable|DeleteTable) /.test(line)),
      ).toEqual([]);
      expect(await tablesLeft(refused)).toEqual(tableNames(refused));
    });
  });
});
