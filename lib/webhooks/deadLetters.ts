// Where an event goes when every attempt failed: whole (its webhook-id and body), with why, so
// that a redrive can deliver it later as it was. In SQS when deployed; in a folder for the local
// run and the tests, which read it as they would the queue.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { sendMessages } from '#lib/webhooks/sqsMessages.ts';

export interface DeadLetter {
  webhookId: string;
  plantId: number;
  body: string;
  attempts: number;
  lastError: string;
  failedAt: string;
}

export interface DeadLetterSink<Letter = DeadLetter> {
  put(letter: Letter): Promise<void>;
}

export const sqsDeadLetters = <Letter>(
  client: SQSClient,
  queueUrl: string,
): DeadLetterSink<Letter> => ({
  async put(letter) {
    await sendMessages(client, queueUrl, [{ body: letter }]);
  },
});

/** One JSON file per event, named by its webhook-id: a second failure replaces the first. */
export const folderDeadLetters = (dir: string): DeadLetterSink => ({
  async put(letter) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${letter.webhookId}.json`);
    // written whole or not at all: a reader never sees half a letter
    writeFileSync(`${file}.tmp`, JSON.stringify(letter, null, 2));
    renameSync(`${file}.tmp`, file);
  },
});
