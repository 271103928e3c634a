// Dead letters delivered again: each event kept after its attempts failed is POSTed to the
// receiver as it was (the same webhook-id and body, signed anew), and removed once a 2xx says it
// arrived; one that fails again stays for a later redrive. Stream records set aside whole go back
// to the function that set them aside.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent, SQSBatchResponse } from 'aws-lambda';
import type { StreamDeadLetter } from '#lib/webhooks/batchResponse.ts';
import type { DeadLetter } from '#lib/webhooks/deadLetters.ts';
import { type DeliveryTarget, deliverOnce, describeOutcome } from '#lib/webhooks/delivery.ts';

export interface RedriveReport {
  delivered: number;
  failed: number;
  /** Why each that failed did, by webhook-id. */
  failures: Map<string, string>;
}

interface Letter {
  /** Where it is kept (a file, a message id), for the report. */
  source: string;
  /** Its JSON text: a dead letter, or (in a queue anyone may send to) anything. */
  text: string;
  remove: () => Promise<void>;
}

/** The dead letter a text holds: its webhook-id and body at least; undefined for anything else. */
const deadLetterOf = (
  text: string,
): Pick<DeadLetter, 'webhookId' | 'body' | 'plantId'> | undefined => {
  try {
    const letter = JSON.parse(text) as Partial<DeadLetter>;
    return typeof letter.webhookId === 'string' && typeof letter.body === 'string'
      ? (letter as DeadLetter)
      : undefined;
  } catch {
    return undefined;
  }
};

/** The dead letters of a folder (the local run's), each removed by deleting its file. */
export function* folderLetters(dir: string): Generator<Letter> {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  } catch {
    return;
  }
  for (const file of files) {
    const path = join(dir, file);
    yield {
      source: path,
      text: readFileSync(path, 'utf8'),
      remove: async () => rmSync(path, { force: true }),
    };
  }
}

/**
 * The dead letters of an SQS queue, ten at a time, until it has no more to give, or gives one it
 * gave already (a failed one whose hiding time ran out during a long run): each once per run.
 */
export async function* queueLetters(client: SQSClient, queueUrl: string): AsyncGenerator<Letter> {
  const seen = new Set<string>();
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        // long enough to deliver; a failed one comes back for a later redrive after it
        VisibilityTimeout: 120,
      }),
    );
    if (Messages.length === 0) return;
    for (const message of Messages) {
      if (seen.has(message.MessageId ?? '')) return;
      seen.add(message.MessageId ?? '');
      yield {
        source: `message ${message.MessageId}`,
        text: message.Body ?? '',
        remove: async () => {
          await client.send(
            new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }),
          );
        },
      };
    }
  }
}

export const redrive = async (
  letters: Iterable<Letter> | AsyncIterable<Letter>,
  target: DeliveryTarget,
  progress: (line: string) => void = () => {},
): Promise<RedriveReport> => {
  const report: RedriveReport = { delivered: 0, failed: 0, failures: new Map() };
  for await (const { source, text, remove } of letters) {
    const letter = deadLetterOf(text);
    if (!letter) {
      // kept as it is, for a person to read: the run goes on with the others
      report.failed += 1;
      report.failures.set(source, 'not a dead letter (no webhookId and body)');
      progress(`failed ${source}: not a dead letter (no webhookId and body)`);
      continue;
    }
    const outcome = await deliverOnce(target, letter);
    if (outcome.outcome === 'delivered') {
      await remove();
      report.delivered += 1;
      progress(`delivered ${letter.webhookId} (plant ${letter.plantId})`);
    } else {
      report.failed += 1;
      report.failures.set(letter.webhookId, describeOutcome(outcome));
      progress(`failed ${letter.webhookId} (plant ${letter.plantId}): ${describeOutcome(outcome)}`);
    }
  }
  return report;
};

/** Invokes a function by name with an event; answers its response, or throws its failure. */
export type Invoke = (functionName: string, event: DynamoDBStreamEvent) => Promise<unknown>;

/**
 * Stream records set aside whole, offered again to the function that could not handle them, each
 * as a batch of its own: one it takes is removed (one it sets aside again is a new message); one it
 * hands back stays for a later redrive.
 */
export const redriveStreamRecords = async (
  letters: AsyncIterable<Letter>,
  invoke: Invoke,
  progress: (line: string) => void = () => {},
): Promise<RedriveReport> => {
  const report: RedriveReport = { delivered: 0, failed: 0, failures: new Map() };
  for await (const { source, text, remove } of letters) {
    const failed = (why: string) => {
      report.failed += 1;
      report.failures.set(source, why);
      progress(`failed ${source}: ${why}`);
    };
    const { functionName, record } = (JSON.parse(text) ?? {}) as Partial<StreamDeadLetter>;
    if (typeof functionName !== 'string' || !record) {
      failed('not a stream dead letter (no functionName and record)');
      continue;
    }
    try {
      const answer = (await invoke(functionName, { Records: [record] })) as SQSBatchResponse | null;
      if (answer?.batchItemFailures?.length) throw new Error('it handed the record back again');
    } catch (error) {
      failed(`${functionName}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    await remove();
    report.delivered += 1;
    progress(`${functionName} took stream record ${record.eventID} (${source})`);
  }
  return report;
};
