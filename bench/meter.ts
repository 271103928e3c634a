// What a function asks of AWS, counted on the way: a proxy in front of DynamoDB Local and the stubs'
// SQS that asks DynamoDB for the capacity each command consumes (ReturnConsumedCapacity: INDEXES,
// added here, so no function ever asks for it), counts SQS's billed requests (each 64 KB of payload
// one), and stands for the webhooks' receiver in every run, counting the bytes sent to it. Only
// the bench's memory runs send DynamoDB and SQS through it: their latency is not measured.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer as bodyOf } from 'node:stream/consumers';
import { ASSUMPTIONS } from './cost/prices.ts';

/**
 * A run that asked nothing of AWS, in the units AWS bills: DynamoDB's commands and SQS's actions by
 * name; the times the function waited on each (calls made together, Promise.all, are one wait);
 * read and write units, the indexes' among them; SQS's billed requests (64 KB of payload each);
 * the webhook POSTs to the receiver and their bytes (body and headers).
 */
export const nothingMetered = () => ({
  dynamoCalls: {} as Record<string, number>,
  dynamoWaits: 0,
  sqsWaits: 0,
  readUnits: 0,
  writeUnits: 0,
  indexWriteUnits: 0,
  sqsCalls: {} as Record<string, number>,
  sqsRequests: 0,
  receiverPosts: 0,
  receiverBytes: 0,
});
/** What one run asked of AWS. */
export type Metered = ReturnType<typeof nothingMetered>;

/** The commands that take ReturnConsumedCapacity: those that read, and those that write. */
const READS = ['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems'];
const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];
/** As DynamoDB answers it: the command's units, and its indexes' among them. */
type Units = { CapacityUnits?: number };
type Capacity = Units &
  Partial<Record<'GlobalSecondaryIndexes' | 'LocalSecondaryIndexes', Record<string, Units>>>;

/** The payload SQS bills by: the messages' bodies (ours carry no attributes). */
const sqsPayloadBytes = (input: { MessageBody?: string; Entries?: { MessageBody?: string }[] }) =>
  Buffer.byteLength([input, ...(input.Entries ?? [])].map((m) => m.MessageBody ?? '').join(''));

/** The proxy: DynamoDB's and SQS's calls passed on, /hooks answered 204; `take()`: counts since. */
export const startMeter = async (dynamoEndpoint: string, sqsEndpoint: string) => {
  let metered = nothingMetered();
  const underWay = { dynamo: 0, sqs: 0 };
  /** One AWS call: counted, passed on with ReturnConsumedCapacity, its capacity read back. */
  const proxy = async (request: IncomingMessage, target: string) => {
    const [service = '', action = ''] = target.split('.');
    const dynamo = service.startsWith('DynamoDB');
    const kind = dynamo ? 'dynamo' : 'sqs';
    // counted as it arrives: a call made beside another still under way is the same wait
    if (underWay[kind]++ === 0) metered[dynamo ? 'dynamoWaits' : 'sqsWaits']++;
    try {
      const input = JSON.parse((await bodyOf(request)).toString() || '{}');
      const calls = metered[dynamo ? 'dynamoCalls' : 'sqsCalls'];
      calls[action] = (calls[action] ?? 0) + 1;
      if (!dynamo) {
        const chunks = Math.ceil(sqsPayloadBytes(input) / ASSUMPTIONS.sqsChunkBytes.value);
        metered.sqsRequests += Math.max(1, chunks);
      } else if ([...READS, ...WRITES].includes(action)) input.ReturnConsumedCapacity = 'INDEXES';
      // DynamoDB Local checks no signature: the body may change under it
      const { host: _host, 'content-length': _length, ...headers } = request.headers;
      const answer = await fetch(`${dynamo ? dynamoEndpoint : sqsEndpoint}${request.url}`, {
        method: 'POST',
        headers: headers as Record<string, string>,
        body: JSON.stringify(input),
      });
      const answered = Buffer.from(await answer.arrayBuffer());
      if (dynamo) count(action, answer.ok, answered);
      return { answer, answered };
    } finally {
      underWay[kind]--;
    }
  };
  /** A DynamoDB command's capacity, as it answered; a failed condition bills a write unit at least. */
  const count = (action: string, ok: boolean, answered: Buffer) => {
    const writes = WRITES.includes(action);
    if (!ok) {
      if (writes && answered.includes('ConditionalCheckFailed')) metered.writeUnits += 1;
      return;
    }
    const { ConsumedCapacity } = JSON.parse(answered.toString() || '{}') as {
      ConsumedCapacity?: Capacity | Capacity[];
    };
    for (const capacity of [ConsumedCapacity ?? []].flat()) {
      metered[writes ? 'writeUnits' : 'readUnits'] += capacity.CapacityUnits ?? 0;
      if (!writes) continue;
      const indexes = { ...capacity.GlobalSecondaryIndexes, ...capacity.LocalSecondaryIndexes };
      for (const index of Object.values(indexes))
        metered.indexWriteUnits += index.CapacityUnits ?? 0;
    }
  };
  const server = createServer(async (request, response) => {
    const target = String(request.headers['x-amz-target'] ?? '');
    if (!target) {
      const body = await bodyOf(request);
      metered.receiverPosts++;
      metered.receiverBytes += body.length + JSON.stringify(request.headers).length;
      response.writeHead(204).end();
      return;
    }
    try {
      const { answer, answered } = await proxy(request, target);
      // the answer as it came (its x-amz-crc32 is of these bytes), ConsumedCapacity and all
      response.writeHead(answer.status, Object.fromEntries(answer.headers)).end(answered);
    } catch (error) {
      // the function sees a failed call, and the run fails saying why
      response.writeHead(502).end(`bench/meter.ts could not pass ${target} on: ${error}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    receiver: `${url}/hooks`,
    take: () => {
      const taken = metered;
      metered = nothingMetered();
      return taken;
    },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
};
