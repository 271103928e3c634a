// DynamoDB Local with on-demand backups, which it lacks (it answers CreateBackup with
// UnknownOperationException): CreateBackup and DescribeBackup answered here as DynamoDB's API
// reference shows them (a backup CREATING, then AVAILABLE when described), every other operation
// passed on to DynamoDB Local. Each operation is recorded, in order, with the table it names (and
// the name of a backup asked for).
import { createServer } from 'node:http';
import { listenLocally } from '../../infra/local/freePort.ts';

const ACCOUNT = '123456789012';

/** The ARN of the backups made here of `table`. */
export const backupArnOf = (table: string) =>
  `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${table}/backup/01767225600000-5a3c9e1f`;

/** `refuse`: the tables whose backup DynamoDB refuses, as it does a caller not allowed to make one. */
export const startDynamoDbWithBackups = async (dynamodbEndpoint: string, refuse: string[] = []) => {
  const operations: string[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const operation = String(request.headers['x-amz-target']).split('.').pop();
    const input = JSON.parse(body) as {
      TableName?: string;
      BackupArn?: string;
      BackupName?: string;
    };
    const table = input.TableName ?? /:table\/([^/]+)\/backup\//.exec(input.BackupArn ?? '')?.[1];
    operations.push([operation, table, input.BackupName].filter(Boolean).join(' '));
    const answer = (status: number, reply: unknown) =>
      response
        .writeHead(status, { 'content-type': 'application/x-amz-json-1.0' })
        .end(JSON.stringify(reply));
    const details = (status: string) => ({
      BackupArn: backupArnOf(String(table)),
      BackupName: `${table}-removed`,
      BackupStatus: status,
      BackupType: 'USER',
      BackupCreationDateTime: 1767225600,
    });
    if (operation === 'CreateBackup' && refuse.includes(String(table)))
      return answer(400, {
        __type: 'com.amazon.coral.service#AccessDeniedException',
        message: `User: arn:aws:sts::${ACCOUNT}:assumed-role/plant-store-deploy/remove is not authorized to perform: dynamodb:CreateBackup on resource: arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${table} because no identity-based policy allows the dynamodb:CreateBackup action`,
      });
    if (operation === 'CreateBackup') return answer(200, { BackupDetails: details('CREATING') });
    if (operation === 'DescribeBackup')
      return answer(200, { BackupDescription: { BackupDetails: details('AVAILABLE') } });
    const passed = await fetch(dynamodbEndpoint, {
      method: 'POST',
      headers: Object.entries(request.headers).flatMap(([name, value]) =>
        ['host', 'connection', 'content-length'].includes(name) ? [] : [[name, String(value)]],
      ) as [string, string][],
      body,
    });
    response
      .writeHead(passed.status, { 'content-type': 'application/x-amz-json-1.0' })
      .end(await passed.text());
  });
  const { port, stop } = await listenLocally(server);
  return { endpoint: `http://127.0.0.1:${port}`, operations, stop };
};
