// The queue poller (infra/local/queuePoller.ts) against the local SQS: the function's answer
// honoured as Lambda's SQS event source mapping honours it (ReportBatchItemFailures).
import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startQueuePoller } from '../../infra/local/queuePoller.ts';
import { startTestSqs, type TestSqs } from '../support/localSqs.ts';

let sqs: TestSqs;
beforeEach(async () => {
  sqs = await startTestSqs();
});
afterEach(() => sqs.stop());

describe('the queue poller', () => {
  /** Polls until the function has been invoked `times` times, then stops. */
  const pollFor = async (times: number, answer: (event: SQSEvent) => Promise<unknown>) => {
    const events: SQSEvent[] = [];
    const reached = Promise.withResolvers<void>();
    const poller = startQueuePoller({
      client: sqs.client,
      queueUrl: sqs.url,
      batchSize: 10,
      pollIntervalMs: 20,
      invoke: async (event) => {
        events.push(event);
        if (events.length === times) reached.resolve();
        return answer(event);
      },
    });
    await reached.promise;
    await poller.stop();
    return events;
  };

  it('gives the function an SQSEvent and deletes all but the failures it reports', async () => {
    for (const body of ['a', 'b', 'c']) await sqs.send(body);
    const [event] = await pollFor(1, async ({ Records }) => ({
      batchItemFailures: [{ itemIdentifier: Records.find((r) => r.body === 'b')?.messageId }],
    }));
    const record = event?.Records.find((r) => r.body === 'b');
    expect(event?.Records).toHaveLength(3);
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:retries',
      awsRegion: 'us-east-1',
      messageAttributes: {},
      md5OfBody: '92eb5ffee6ae2fec3ad71c777531578f',
      attributes: { ApproximateReceiveCount: '1', SenderId: '000000000000' },
    });
    expect(Object.keys(record?.attributes ?? {}).sort()).toEqual([
      'ApproximateFirstReceiveTimestamp',
      'ApproximateReceiveCount',
      'SenderId',
      'SentTimestamp',
    ]);
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '1', delayed: '0' });
    await sqs.changeVisibility(record?.receiptHandle, 0);
    expect((await sqs.receive()).map((m) => m.Body)).toEqual(['b']);
  });

  it('deletes none when the function fails, or answers with a failure of no message of the batch', async () => {
    for (const body of ['a', 'b']) await sqs.send(body);
    await pollFor(1, async () => {
      throw new Error('function error');
    });
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '2', delayed: '0' });
    await sleep(1100);
    await pollFor(1, async () => ({ batchItemFailures: [{ itemIdentifier: 'someone else' }] }));
    expect(await sqs.counts()).toEqual({ visible: '0', inFlight: '2', delayed: '0' });
  });

  it('invokes one batch at a time, and stop() waits for the one under way', async () => {
    for (const body of ['a', 'b', 'c']) await sqs.send(body);
    let running = 0;
    let most = 0;
    let finished = 0;
    const secondStarted = Promise.withResolvers<void>();
    const poller = startQueuePoller({
      client: sqs.client,
      queueUrl: sqs.url,
      batchSize: 1,
      pollIntervalMs: 10,
      invoke: async (event) => {
        running += 1;
        most = Math.max(most, running);
        if (event.Records[0]?.body === 'b') secondStarted.resolve();
        await sleep(150);
        running -= 1;
        finished += 1;
        return { batchItemFailures: [] };
      },
    });
    await secondStarted.promise;
    await poller.stop();
    expect(finished).toBe(2);
    expect(most).toBe(1);
    await sleep(50);
    expect(finished).toBe(2);
    expect(await sqs.counts()).toEqual({ visible: '1', inFlight: '0', delayed: '0' });
  });
});
