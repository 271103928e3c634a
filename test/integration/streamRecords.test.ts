// One caller never holds another's events (docs/webhooks.md, "One caller never hurts another"): plants written into DynamoDB Local, its stream
// read as Lambda reads it (infra/local/streamPoller.ts: bounded retries, bisect), the callers'
// fan-out (queueEndpointEvents) sending to the real SQS emulator (fauxqs, which enforces SQS's
// character set and its 1 MiB per message and per batch), and what it sets aside read back whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { queueEndpointEventsHandler } from '#lib/endpointDeliveries/queueEndpointEvents.ts';
import type { DeliveryQueue, EndpointDelivery } from '#lib/endpointDeliveries/store.ts';
import type { StoredEndpoint } from '#lib/endpoints/store.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import type { PlantStore } from '#lib/plants/store.ts';
import type { StreamDeadLetter } from '#lib/webhooks/batchResponse.ts';
import { sqsDeadLetters } from '#lib/webhooks/deadLetters.ts';
import { sqsDeliveryQueue } from '#lib/webhooks/retries.ts';
import {
  keepFailedStreamRecordsHandler,
  type S3Notification,
} from '#lib/webhooks/streamFailures.ts';
import { localClientConfig, localStreamsClient } from '../../infra/local/dynamoClient.ts';
import { type LocalSqs, startLocalSqs } from '../../infra/local/sqs.ts';
import { invocationRecordOf, streamFailureBucket } from '../../infra/local/streamFailureBucket.ts';
import {
  type FailedBatch,
  type StreamPoller,
  startStreamPoller,
} from '../../infra/local/streamPoller.ts';
import { queueLetters, redriveStreamRecords } from '../../infra/webhooks/redrive.ts';
import {
  createDynamoPlantStore,
  createTestTable,
  localDocumentClient,
} from '../support/dynamodbTables.ts';
import { lambdaContext } from '../support/events.ts';
import { FakeEndpointStore } from '../support/fakeEndpointStore.ts';
import { quietTelemetry, type RecordedTelemetry, recordTelemetry } from '../support/telemetry.ts';

const endpoint = inject('dynamodbEndpoint');

/** A name of every kind SQS's character set lacks, noncharacters, and more code points. */
const ODD_NAME = 'Fern \uFFFF\uFFFE \uFDD0 \u{1FFFE} \u{1F33F} \u0000\u001F "\\';
/** 32,600 quotation marks: a 65 KB name under the 64 KiB body, ~130 KB in each message. */
const HUGE_NAME = '"'.repeat(32_600);

let table: Awaited<ReturnType<typeof createTestTable>>;
let store: PlantStore;
let sqs: LocalSqs;
let client: SQSClient;
let s3: S3Client;
let dataDir: string;
let poller: StreamPoller | undefined;
let givenUp: FailedBatch[];
let fanOut: ReturnType<typeof queueEndpointEventsHandler>;
let telemetry: RecordedTelemetry;

const endpointsOf = (owner: string, count: number): StoredEndpoint[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `ep_${owner}_${i}`,
    owner,
    url: `https://${owner}.example.com/hooks/${i}`,
    events: [...EVENT_TYPES],
    disabled: false,
    createdAt: `2026-11-01T00:00:0${i}.000Z`,
    secrets: [{ secret: 'whsec_unused' }],
  }));

/** Every message of a queue, read and deleted, its body parsed. */
const drain = async <Body>(queue: string): Promise<Body[]> => {
  const bodies: Body[] = [];
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: sqs.queueUrl(queue), MaxNumberOfMessages: 10 }),
    );
    if (Messages.length === 0) return bodies;
    for (const { Body, ReceiptHandle } of Messages) {
      bodies.push(JSON.parse(Body ?? '') as Body);
      await client.send(new DeleteMessageCommand({ QueueUrl: sqs.queueUrl(queue), ReceiptHandle }));
    }
  }
};

/** The fan-out, fed by the stream as Lambda feeds it (5 retries, bisect), to the real queues. */
const startFanOut = (
  endpoints: StoredEndpoint[],
  queue?: (real: DeliveryQueue) => DeliveryQueue,
) => {
  const endpointStore = new FakeEndpointStore();
  for (const one of endpoints) endpointStore.endpoints.set(one.id, one);
  const real = sqsDeliveryQueue(client, { main: sqs.queueUrl('deliveries') });
  const handler = queueEndpointEventsHandler({
    endpoints: endpointStore,
    queue: queue ? queue(real) : real,
    streamDeadLetters: sqsDeadLetters<StreamDeadLetter>(client, sqs.queueUrl('stream-dead')),
    ...telemetry,
  });
  fanOut = handler;
  poller = startStreamPoller({
    client: localStreamsClient(endpoint),
    streamArn: table.streamArn,
    invoke: (event: DynamoDBStreamEvent) => handler(event, lambdaContext(60_000)),
    onFailure: async (batch) => void givenUp.push(batch),
    batchSize: 10,
    maximumRetryAttempts: 5,
    bisectBatchOnFunctionError: true,
    accepts: () => true,
  });
  return poller;
};

beforeEach(async () => {
  table = await createTestTable(endpoint);
  store = createDynamoPlantStore({ client: localDocumentClient(endpoint), table: table.name });
  dataDir = mkdtempSync(join(tmpdir(), 'plant-store-stream-'));
  sqs = await startLocalSqs({
    dir: dataDir,
    queues: { deliveries: {}, 'stream-dead': {}, failures: {} },
    buckets: ['stream-failures'],
  });
  s3 = new S3Client(localClientConfig(sqs.endpoint));
  client = new SQSClient({
    endpoint: sqs.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  givenUp = [];
  telemetry = recordTelemetry();
});
afterEach(async () => {
  await poller?.stop();
  poller = undefined;
  client.destroy();
  s3.destroy();
  await sqs.stop();
  await table.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the callers' fan-out from the stream", () => {
  it('queues any accepted plant byte for byte: noncharacters, and a 65 KB name to ten endpoints', async () => {
    await startFanOut([...endpointsOf('alice', 10), ...endpointsOf('bob', 1)]);
    await store.create({ id: 1, name: ODD_NAME, tag: '\uFFFF' }, 'alice');
    await store.create({ id: 2, name: HUGE_NAME }, 'alice');
    await store.create({ id: 3, name: 'Innocent' }, 'bob');
    await poller?.drained();

    const queued = await drain<EndpointDelivery>('deliveries');
    const names = (id: number) =>
      queued
        .map((delivery) => JSON.parse(delivery.body).data)
        .filter((plant: { id: number }) => plant.id === id)
        .map((plant: { name: string; tag?: string }) => plant);
    expect(names(1)).toEqual(Array(10).fill({ id: 1, name: ODD_NAME, tag: '\uFFFF' }));
    expect(names(2)).toEqual(Array(10).fill({ id: 2, name: HUGE_NAME }));
    expect(names(3)).toEqual([{ id: 3, name: 'Innocent' }]);
    expect(givenUp).toEqual([]);
    expect(await drain('stream-dead')).toEqual([]);
  });

  it('queues each delivery with its caller as its fair-queue tenant: any sub, as MessageGroupId takes it', async () => {
    // a sub of 300 characters, none of which MessageGroupId takes as it is
    const odd = 'ünïcødé sub 🌿 '.repeat(20);
    await startFanOut([...endpointsOf('alice', 2), ...endpointsOf(odd, 2)]);
    await store.create({ id: 1, name: 'Fern' }, 'alice');
    await store.create({ id: 2, name: 'Ivy' }, odd);
    await poller?.drained();

    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: sqs.queueUrl('deliveries'),
        MaxNumberOfMessages: 10,
        MessageSystemAttributeNames: ['MessageGroupId'],
      }),
    );
    const tenants = new Map(
      Messages.map(({ Body, Attributes }) => [
        (JSON.parse(Body ?? '') as EndpointDelivery).owner,
        Attributes?.MessageGroupId,
      ]),
    );
    expect(Messages).toHaveLength(4);
    expect(tenants.size).toBe(2);
    expect(tenants.get('alice')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tenants.get(odd)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tenants.get('alice')).not.toBe(tenants.get(odd));
  });

  it('sets aside whole at once a record whose message SQS refuses, retries one that fails for now, and the records behind both go on', async () => {
    // a queue that takes no message over 2 KiB (SenderFault, as SQS over 1 MiB): one plant's is
    await client.send(
      new SetQueueAttributesCommand({
        QueueUrl: sqs.queueUrl('deliveries'),
        Attributes: { MaximumMessageSize: '2048' },
      }),
    );
    // and that cannot take plant 3's deliveries the first two times (a throttle, a network fault)
    let refusals = 2;
    await startFanOut([...endpointsOf('alice', 1), ...endpointsOf('bob', 1)], (real) => ({
      send: async (deliveries) => {
        if (deliveries.some((d) => JSON.parse(d.body).data.id === 3) && refusals-- > 0)
          throw new Error('ThrottlingException: rate exceeded');
        await real.send(deliveries);
      },
    }));
    await store.create({ id: 1, name: 'x'.repeat(3000) }, 'alice');
    await store.create({ id: 2, name: 'Behind the refused one' }, 'bob');
    await store.create({ id: 3, name: 'Failing for now' }, 'alice');
    await store.create({ id: 4, name: 'Behind the retried one' }, 'bob');
    await poller?.drained();

    const ids = (await drain<EndpointDelivery>('deliveries')).map(
      (delivery) => JSON.parse(delivery.body).data.id,
    );
    // each once: no record before a failing one is fanned out again
    expect(ids.sort()).toEqual([2, 3, 4]);
    expect(refusals).toBe(-1);
    const setAside = await drain<StreamDeadLetter>('stream-dead');
    expect(setAside).toHaveLength(1);
    expect(setAside[0]?.functionName).toBe(lambdaContext().functionName);
    expect(setAside[0]?.reason).toMatch(/refused 1 of 1 messages/);
    // whole: the record as the stream gave it, the plant in its image
    expect(unmarshall(setAside[0]?.record.dynamodb?.NewImage as never)).toMatchObject({
      id: 1,
      name: 'x'.repeat(3000),
      createdBy: 'alice',
    });
    expect(givenUp).toEqual([]);

    // redriven before it is mended: set aside again, and the run ends, the new copy kept
    await client.send(
      new SendMessageCommand({
        QueueUrl: sqs.queueUrl('stream-dead'),
        MessageBody: JSON.stringify(setAside[0]),
      }),
    );
    const early = await redriveStreamRecords(
      queueLetters(client, sqs.queueUrl('stream-dead')),
      async (_, event) => fanOut(event, lambdaContext()),
    );
    expect(early).toMatchObject({ delivered: 1, failed: 1 });

    // mended (the queue takes 1 MiB again), the redrive offers it to its function, which takes it
    await client.send(
      new SetQueueAttributesCommand({
        QueueUrl: sqs.queueUrl('deliveries'),
        Attributes: { MaximumMessageSize: '1048576' },
      }),
    );
    const invoked: string[] = [];
    const report = await redriveStreamRecords(
      queueLetters(client, sqs.queueUrl('stream-dead')),
      async (functionName, event) => {
        invoked.push(functionName);
        return fanOut(event, lambdaContext());
      },
    );
    expect(report).toMatchObject({ delivered: 1, failed: 0 });
    expect(invoked).toEqual([lambdaContext().functionName]);
    const redriven = await drain<EndpointDelivery>('deliveries');
    expect(redriven.map((delivery) => JSON.parse(delivery.body).data)).toEqual([
      { id: 1, name: 'x'.repeat(3000) },
    ]);
    expect(await drain('stream-dead')).toEqual([]);
  });

  it.each([
    [
      'a queue that does not exist (QueueDoesNotExist, from the queue)',
      () => ({ main: `${sqs.endpoint}/000000000000/no-such-queue` }),
      undefined,
    ],
    [
      'a role without sqs:SendMessage (AccessDenied, as the SDK throws it)',
      () => ({ main: sqs.queueUrl('deliveries') }),
      Object.assign(new Error('User is not authorized to perform: sqs:sendmessage'), {
        name: 'AccessDenied',
        $fault: 'client',
      }),
    ],
  ])(
    'hands back, and never sets aside at once, a record whose deliveries meet %s',
    async (_fault, urls, thrown) => {
      const faulty = thrown
        ? ({ send: async () => Promise.reject(thrown) } as unknown as SQSClient)
        : client;
      await startFanOut(endpointsOf('alice', 1), () => sqsDeliveryQueue(faulty, urls()));
      await store.create({ id: 1, name: 'Misconfigured' }, 'alice');
      await poller?.drained();

      // retried as a record failing for now, then given up to the on-failure destination
      expect(telemetry.metricNames()).toContain('WebhookEventsHandedBack');
      expect(telemetry.metricNames()).not.toContain('StreamRecordsSetAside');
      expect(givenUp).toHaveLength(1);
      expect(await drain('stream-dead')).toEqual([]);
    },
  );

  it('writes a record still failing after five retries whole to the on-failure destination, whose consumer sets it aside with no stream, and goes on', async () => {
    // both in the stream before it is read: one batch, as Lambda would give them
    await store.create({ id: 1, name: 'Never queued' }, 'alice');
    await store.create({ id: 2, name: 'Behind it' }, 'bob');
    await startFanOut([...endpointsOf('alice', 1), ...endpointsOf('bob', 1)], (real) => ({
      send: async (deliveries) => {
        if (deliveries.some((d) => JSON.parse(d.body).data.id === 1))
          throw new Error('AccessDenied: not authorized to send to this queue');
        await real.send(deliveries);
      },
    }));
    await poller?.drained();

    const ids = (await drain<EndpointDelivery>('deliveries')).map(
      (delivery) => JSON.parse(delivery.body).data.id,
    );
    // once, though Lambda offered it again behind the failing one at each retry
    expect(ids).toEqual([2]);
    // told of once, not at each of its six tries
    const handedBack = telemetry.metricNames().filter((name) => name === 'WebhookEventsHandedBack');
    expect(handedBack).toHaveLength(1);
    // the batch from the failing record on, with its records, as Lambda writes it to S3
    expect(givenUp).toEqual([
      expect.objectContaining({ reason: 'records failed after every retry' }),
    ]);
    expect(givenUp[0]?.records).toHaveLength(2);
    // written as npm start's destination writes it, and S3's notification of it
    await streamFailureBucket(s3, client, 'stream-failures', sqs.queueUrl('failures'))('fanOut')(
      givenUp[0] as FailedBatch,
    );
    const [notification] = await drain<S3Notification>('failures');
    // keyed as Lambda keys it: aws/lambda/<mapping>/<shard>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<uuid>
    expect(notification?.Records?.[0]?.s3.object.key).toMatch(
      /^aws\/lambda\/fanOut\/[^/]+\/\d{4}\/\d\d\/\d\d\/\d{4}-\d\d-\d\dT\d\d\.\d\d\.\d\d-[0-9a-f-]{36}$/,
    );
    const keep = keepFailedStreamRecordsHandler({
      s3,
      streamDeadLetters: sqsDeadLetters<StreamDeadLetter>(client, sqs.queueUrl('stream-dead')),
      ...quietTelemetry(),
    });
    const message = { messageId: 'm1', body: JSON.stringify(notification) } as SQSRecord;
    expect(await keep({ Records: [message] }, lambdaContext())).toEqual({ batchItemFailures: [] });
    const setAside = await drain<StreamDeadLetter>('stream-dead');
    expect(setAside.map(({ functionName }) => functionName)).toEqual(['fanOut', 'fanOut']);
    // the batch as Lambda described it: from the failing record on, the one handled after it too
    expect(setAside.map(({ record }) => unmarshall(record.dynamodb?.NewImage as never))).toEqual([
      expect.objectContaining({ id: 1, name: 'Never queued', createdBy: 'alice' }),
      expect.objectContaining({ id: 2, name: 'Behind it', createdBy: 'bob' }),
    ]);
    // S3's test event, sent once the notification is set, names no object: taken, nothing set aside
    const testEvent = { messageId: 'm0', body: JSON.stringify({ Event: 's3:TestEvent' }) };
    expect(await keep({ Records: [testEvent as SQSRecord] }, lambdaContext())).toEqual({
      batchItemFailures: [],
    });
    expect(await drain('stream-dead')).toEqual([]);
    // a key S3 URL-encoded in its notification (a space as +) is read as written
    const Key = `${notification?.Records?.[0]?.s3.object.key} 2:1`;
    const batch = invocationRecordOf(givenUp[0] as FailedBatch, 'fanOut');
    await s3.send(
      new PutObjectCommand({ Bucket: 'stream-failures', Key, Body: JSON.stringify(batch) }),
    );
    const encoded = {
      Records: [
        {
          s3: {
            bucket: { name: 'stream-failures' },
            object: { key: encodeURIComponent(Key).replaceAll('%2F', '/').replaceAll('%20', '+') },
          },
        },
      ],
    };
    const reencoded = { messageId: 'm3', body: JSON.stringify(encoded) } as SQSRecord;
    expect(await keep({ Records: [reencoded] }, lambdaContext())).toEqual({
      batchItemFailures: [],
    });
    expect(await drain('stream-dead')).toHaveLength(2);
    // a message of no notification (an older version's description) is handed back, not dropped
    const older = { messageId: 'm2', body: JSON.stringify({ DDBStreamBatchInfo: {} }) };
    expect(await keep({ Records: [older as SQSRecord] }, lambdaContext())).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm2' }],
    });

    // redriven, each is offered on its own: the one still failing stays, the other is handled
    // again (the same webhook-id: its receivers deduplicate), not skipped as handled before
    for (const letter of setAside) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: sqs.queueUrl('stream-dead'),
          MessageBody: JSON.stringify(letter),
        }),
      );
    }
    const report = await redriveStreamRecords(
      queueLetters(client, sqs.queueUrl('stream-dead')),
      async (_, event) => fanOut(event, lambdaContext()),
    );
    expect(report).toMatchObject({ delivered: 1, failed: 1 });
    const again = await drain<EndpointDelivery>('deliveries');
    expect(again.map((delivery) => JSON.parse(delivery.body).data.id)).toEqual([2]);

    // a notification its consumer failed on five times (moved to the stream dead letters as it
    // is): the redrive keeps it and says where it goes back while the bucket keeps the batch
    await drain('stream-dead');
    await client.send(
      new SendMessageCommand({ QueueUrl: sqs.queueUrl('stream-dead'), MessageBody: message.body }),
    );
    const lines: string[] = [];
    const kept = await redriveStreamRecords(
      queueLetters(client, sqs.queueUrl('stream-dead')),
      async () => expect.fail('a notification is offered to no stream function'),
      (line) => lines.push(line),
    );
    expect(kept).toMatchObject({ delivered: 0, failed: 1 });
    expect(lines.join('\n')).toMatch(
      /send this message again to the webhook-stream-failures queue/,
    );
    expect(await drain('stream-dead')).toHaveLength(1);
  });
});
