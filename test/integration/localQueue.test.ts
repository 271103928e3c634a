// The local SQS stand-in (infra/local/sqsServer.ts) driven by the real SDK v3 client, for the SQS
// semantics the webhook retries rely on: delays, visibility timeouts, receipt handles, redrive to
// the dead-letter queue, and messages kept across a restart.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ReceiveMessageCommand,
  SendMessageBatchCommand,
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

  it('answers errors the SDK names', async () => {
    const elsewhere = `${sqs.endpoint}/000000000000/no-such-queue`;
    await expect(
      sqs.client.send(new SendMessageCommand({ QueueUrl: elsewhere, MessageBody: 'x' })),
    ).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    await expect(sqs.send('x', 901)).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    await expect(
      sqs.client.send(
        new SendMessageBatchCommand({
          QueueUrl: sqs.url,
          Entries: [{ Id: '1', MessageBody: 'x' }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'UnknownOperationException' });
    await expect(sqs.changeVisibility('not-a-handle', 5)).rejects.toMatchObject({
      name: 'ReceiptHandleIsInvalid',
    });
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

  it('takes no message for a long poll whose caller hung up', async () => {
    const hangUp = new AbortController();
    const poll = sqs.client.send(
      new ReceiveMessageCommand({ QueueUrl: sqs.url, WaitTimeSeconds: 5 }),
      {
        abortSignal: hangUp.signal,
      },
    );
    await sleep(100);
    hangUp.abort();
    await expect(poll).rejects.toThrow();
    await sqs.send('for a later poll');
    await sleep(150);
    expect(await sqs.counts()).toEqual({ visible: '1', inFlight: '0', delayed: '0' });
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
    await expect(sqs.changeVisibility(stale, 0)).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '2', delayed: '0' });

    // 0 makes it visible now; a visible message is not in flight
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
    expect(dead?.Attributes?.DeadLetterQueueSourceArn).toBe(
      'arn:aws:sqs:us-east-1:000000000000:retries',
    );
  });

  it('keeps every message, with its deadline and receive count, across a restart', async () => {
    await sqs.send('delayed', 1);
    await sqs.send('in flight');
    expect((await sqs.receive(1)).map((m) => m.Body)).toEqual(['in flight']);
    await sqs.send('received once');
    await sqs.receive(0);
    await sqs.send('waiting');

    await sqs.restart();
    expect(readdirSync(join(sqs.dir, 'retries'))).toHaveLength(4);
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
