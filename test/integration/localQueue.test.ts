// The local SQS (fauxqs, infra/local/sqs.ts) driven by the real SDK v3 client, for the SQS
// semantics the webhook retries rely on: delays, visibility timeouts, receipt handles, redrive to
// the dead-letter queue, and messages kept across a restart; and where fauxqs differs from SQS in
// what the webhook path does not rely on, each difference pinned, so that an upgrade that ends one
// says so.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ChangeMessageVisibilityBatchCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSqs, type TestSqs } from '../support/localSqs.ts';

let sqs: TestSqs;
beforeEach(async () => {
  sqs = await startTestSqs();
});
afterEach(() => sqs.stop());

describe('the local SQS', () => {
  it('sends, receives (the SDK checking the MD5s) and deletes', async () => {
    const before = Date.now();
    const id = await sqs.send('{"plant":"Monstera é"}');
    const [message, ...others] = await sqs.receive();
    expect(others).toEqual([]);
    expect(message).toMatchObject({ MessageId: id, Body: '{"plant":"Monstera é"}' });
    expect(message?.Attributes?.ApproximateReceiveCount).toBe('1');
    expect(Number(message?.Attributes?.SentTimestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(message?.Attributes?.ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(
      Number(message?.Attributes?.SentTimestamp),
    );
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '1', delayed: '0' });
    await sqs.deleteMessage(message?.ReceiptHandle);
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '0', delayed: '0' });
  });

  it('reaches the server from the QueueUrl alone, as a client without an endpoint does', async () => {
    // quiet: it warns on each request that the QueueUrl's host is not the region's endpoint
    const quiet = () => {};
    const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet };
    const plain = new SQSClient({ region: 'us-east-1', logger });
    await plain.send(new SendMessageCommand({ QueueUrl: sqs.url, MessageBody: 'routed' }));
    plain.destroy();
    expect((await sqs.receive()).map((m) => m.Body)).toEqual(['routed']);
  });

  it('is reached on 127.0.0.1 only (patches/fauxqs+*.patch: it listened on every interface)', async () => {
    const { port } = new URL(sqs.endpoint);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    // the rest of 127.0.0.0/8 reaches this machine too, but not a server bound to 127.0.0.1
    await expect(
      fetch(`http://127.0.0.2:${port}/health`),
      'fauxqs listens on every interface again: see that patches/fauxqs+*.patch still applies (npm ci)',
    ).rejects.toThrow();
  });

  it('answers QueueDoesNotExist, as the SDK names it, for a queue it does not have', async () => {
    const elsewhere = `${sqs.endpoint}/000000000000/no-such-queue`;
    await expect(
      sqs.client.send(new SendMessageCommand({ QueueUrl: elsewhere, MessageBody: 'x' })),
    ).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
  });

  it('hides a message for its DelaySeconds; a long poll waits for it', async () => {
    const sent = Date.now();
    await sqs.send('later', 1);
    expect(await sqs.receive()).toEqual([]);
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '0', delayed: '1' });
    const { Messages = [] } = await sqs.client.send(
      new ReceiveMessageCommand({ QueueUrl: sqs.url, WaitTimeSeconds: 5 }),
    );
    expect(Messages.map((m) => m.Body)).toEqual(['later']);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - sent).toBeLessThan(2000);
  });

  it('returns a message not deleted after its visibility timeout, which ChangeMessageVisibility moves', async () => {
    await sqs.send('returns');
    await sqs.send('extended');
    const first = await sqs.receive(1);
    const extended = first.find((m) => m.Body === 'extended');
    await sqs.changeVisibility(extended?.ReceiptHandle, 10);
    expect(await sqs.receive()).toEqual([]);
    await sleep(1100);
    const [again, ...others] = await sqs.receive(30);
    expect(others).toEqual([]);
    expect(again?.Body).toBe('returns');
    expect(again?.Attributes?.ApproximateReceiveCount).toBe('2');

    // the first receive's handle is stale: it deletes nothing and changes nothing
    const stale = first.find((m) => m.Body === 'returns')?.ReceiptHandle;
    await sqs.deleteMessage(stale);
    await expect(sqs.changeVisibility(stale, 0)).rejects.toThrow();
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '2', delayed: '0' });

    // 0 makes it visible now (fauxqs 2.4.1 lost the message there: patches/fauxqs+*.patch); a
    // visible message is not in flight
    await sqs.changeVisibility(extended?.ReceiptHandle, 0);
    await expect(sqs.changeVisibility(extended?.ReceiptHandle, 5)).rejects.toMatchObject({
      name: 'MessageNotInflight',
    });
    expect((await sqs.receive()).map((m) => m.Body)).toEqual(['extended']);
  });

  it('moves a message received more than maxReceiveCount times to the dead-letter queue', async () => {
    const id = await sqs.send('poison');
    expect((await sqs.receive(0))[0]?.Attributes?.ApproximateReceiveCount).toBe('1');
    expect((await sqs.receive(0))[0]?.Attributes?.ApproximateReceiveCount).toBe('2');
    expect(await sqs.receive(0)).toEqual([]);
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '0', delayed: '0' });
    const [dead, ...others] = await sqs.receive(undefined, sqs.deadLetterUrl);
    expect(others).toEqual([]);
    expect(dead).toMatchObject({ MessageId: id, Body: 'poison' });
  });

  it('keeps every message, with its deadline and receive count, across a restart', async () => {
    await sqs.send('delayed', 1);
    await sqs.send('in flight');
    expect((await sqs.receive(1)).map((m) => m.Body)).toEqual(['in flight']);
    await sqs.send('received once');
    await sqs.receive(0);
    await sqs.send('waiting');

    await sqs.restart();
    expect(await sqs.counts()).toEqual({ visible: '2', inFlight: '1', delayed: '1' });
    const now = await sqs.receive(30);
    expect(now.map((m) => [m.Body, m.Attributes?.ApproximateReceiveCount]).sort()).toEqual([
      ['received once', '2'],
      ['waiting', '1'],
    ]);
    await sleep(1100);
    const later = await sqs.receive(30);
    expect(later.map((m) => [m.Body, m.Attributes?.ApproximateReceiveCount]).sort()).toEqual([
      ['delayed', '1'],
      ['in flight', '2'],
    ]);
  });
});

/** Fails, saying what to do, once fauxqs answers as SQS does. */
const stillDiffers = (what: string) =>
  `fauxqs now ${what} as SQS does: assert that in the tests above and drop it from here`;

describe('where fauxqs differs from SQS, none of it a thing the webhook path relies on', () => {
  it('takes a DelaySeconds over 900 (SQS: InvalidParameterValue; our retry queue caps it at 900)', async () => {
    await expect(sqs.send('x', 901), stillDiffers('refuses 901')).resolves.toBeTypeOf('string');
  });

  it('names an invalid parameter AWS.SimpleQueueService.InvalidParameterValue (SQS: InvalidParameterValue)', async () => {
    const refused = await sqs.receive(43_201).catch((error: unknown) => error);
    expect((refused as Error).name, stillDiffers('names it')).toBe(
      'AWS.SimpleQueueService.InvalidParameterValue',
    );
  });

  it('answers MessageNotInflight to a stale or malformed receipt handle (SQS: InvalidParameterValue, ReceiptHandleIsInvalid)', async () => {
    await sqs.send('x');
    const [first] = await sqs.receive(0);
    await sqs.receive(30);
    const notInflight = { name: 'MessageNotInflight' };
    for (const handle of [first?.ReceiptHandle, 'not-a-handle'])
      await expect(sqs.changeVisibility(handle, 5), stillDiffers('names it')).rejects.toMatchObject(
        notInflight,
      );
  });

  it('gives a dead letter no DeadLetterQueueSourceArn', async () => {
    await sqs.send('poison');
    for (let i = 0; i < 3; i += 1) await sqs.receive(0);
    const [dead] = await sqs.receive(undefined, sqs.deadLetterUrl);
    expect(dead?.Body).toBe('poison');
    expect(dead?.Attributes?.DeadLetterQueueSourceArn, stillDiffers('sets it')).toBeUndefined();
  });
});

describe('the local SQS as a fair queue (patches/fauxqs+*.patch; SQS, "How Amazon SQS fair queues work")', () => {
  const bodies = (messages: { Body?: string | undefined }[]) => messages.map(({ Body }) => Body);
  const others = Array.from({ length: 12 }, (_, i) => `tenant ${i}`);
  /** Each of `tenants` sends one message and is its consumers' work for `ms`. */
  const busyFor = async (tenants: string[], ms: number) => {
    for (const tenant of tenants) await sqs.send(`${tenant} earlier`, undefined, tenant);
    const taken = [...(await sqs.receive(30)), ...(await sqs.receive(30))];
    expect(taken).toHaveLength(tenants.length);
    await sleep(ms);
    for (const { ReceiptHandle } of taken) await sqs.deleteMessage(ReceiptHandle);
  };

  it('keeps each message’s MessageGroupId on a standard queue', async () => {
    await sqs.send('grouped', undefined, 'caller-a');
    await sqs.send('alone');
    const received = await sqs.receive(30);
    expect(received.map((m) => [m.Body, m.Attributes?.MessageGroupId])).toEqual([
      ['grouped', 'caller-a'],
      ['alone', undefined],
    ]);
  });

  it('serves every other tenant first while one has over 10% of the recent processing time', async () => {
    await busyFor(['busy'], 300);
    // the busy tenant's backlog first in, then one message of each of twelve others
    for (let i = 0; i < 5; i += 1) await sqs.send(`busy ${i}`, undefined, 'busy');
    for (const tenant of others) await sqs.send(tenant, undefined, tenant);
    await sqs.send('no tenant');

    expect(bodies(await sqs.receive(30))).toEqual(others.slice(0, 10));
    expect(bodies(await sqs.receive(30))).toEqual([
      ...others.slice(10),
      'no tenant',
      ...[0, 1, 2, 3, 4].map((i) => `busy ${i}`),
    ]);
  });

  it('counts only the tenants with messages waiting or in flight: one drained hides no other', async () => {
    // the drained tenant had ten messages for a second each; the next one, ten at once and done
    for (let i = 0; i < 10; i += 1) await sqs.send(`drained ${i}`, undefined, 'drained');
    const drained = await sqs.receive(30);
    await sleep(1000);
    for (const { ReceiptHandle } of drained) await sqs.deleteMessage(ReceiptHandle);
    for (let i = 0; i < 12; i += 1) await sqs.send(`next ${i}`, undefined, 'next');
    for (const { ReceiptHandle } of await sqs.receive(30)) await sqs.deleteMessage(ReceiptHandle);
    await sqs.send('calm', undefined, 'calm');
    expect(bodies(await sqs.receive(30))).toEqual(['calm', 'next 10', 'next 11']);
  });

  it('serves in order while no tenant has over 10% of the processing time or 30 in flight', async () => {
    await busyFor(others, 300);
    for (const tenant of [...others].reverse()) await sqs.send(tenant, undefined, tenant);
    expect(bodies(await sqs.receive(30))).toEqual([...others].reverse().slice(0, 10));
  });

  /** `tenant` with `count` messages in flight that no consumer works on (hidden for a minute). */
  const inFlight = async (tenant: string, count: number) => {
    for (let i = 0; i < count; i += 1) await sqs.send(`${tenant} held ${i}`, undefined, tenant);
    for (let taken = 0; taken < count; ) {
      const batch = await sqs.receive(60);
      await sqs.client.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: sqs.url,
          Entries: batch.map(({ ReceiptHandle }, i) => ({
            Id: String(i),
            ReceiptHandle,
            VisibilityTimeout: 60,
          })),
        }),
      );
      taken += batch.length;
    }
  };

  it('serves every other tenant first while one has 30 of its own in flight and over 10% of them', async () => {
    // each of the twelve had a twelfth of the processing time; the wide tenant, next to none
    await busyFor(others, 1500);
    await inFlight('wide', 30);
    await sqs.send('wide next', undefined, 'wide');
    for (const tenant of others) await sqs.send(tenant, undefined, tenant);
    expect(bodies(await sqs.receive(30))).toEqual(others.slice(0, 10));
  });

  it('serves a tenant with 29 in flight in order', async () => {
    await busyFor(others, 1500);
    await inFlight('wide', 29);
    await sqs.send('wide next', undefined, 'wide');
    for (const tenant of others) await sqs.send(tenant, undefined, tenant);
    expect(bodies(await sqs.receive(30))).toEqual(['wide next', ...others.slice(0, 9)]);
  });

  it('serves, of two noisy tenants with as many in flight, the one with less processing time first', async () => {
    await busyFor(['a'], 600);
    await busyFor(['b'], 200);
    for (let i = 0; i < 2; i += 1) await sqs.send(`a ${i}`, undefined, 'a');
    for (let i = 0; i < 2; i += 1) await sqs.send(`b ${i}`, undefined, 'b');
    expect(bodies(await sqs.receive(30))).toEqual(['b 0', 'b 1', 'a 0', 'a 1']);
  });

  it('serves the noisy tenant with the fewest messages in flight first, then the other', async () => {
    await busyFor(['a', 'b'], 300);
    await inFlight('a', 3);
    for (let i = 0; i < 3; i += 1) await sqs.send(`a ${i}`, undefined, 'a');
    for (let i = 0; i < 3; i += 1) await sqs.send(`b ${i}`, undefined, 'b');
    expect(bodies(await sqs.receive(30))).toEqual(['b 0', 'b 1', 'b 2', 'a 0', 'a 1', 'a 2']);
  });
});
