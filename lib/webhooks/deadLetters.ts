// An event whose every attempt failed, kept whole with why in the dead-letter queue for a redrive.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { WaitingEvent } from '#lib/webhooks/retries.ts';
import { sendMessages } from '#lib/webhooks/sqsMessages.ts';

export type DeadLetter = Omit<WaitingEvent, 'dueAt'> & { failedAt: string };

export interface DeadLetterSink<Letter = DeadLetter> {
  put(letter: Letter): Promise<void>;
}

export const sqsDeadLetters = <Letter>(
  client: SQSClient,
  queueUrl: string,
): DeadLetterSink<Letter> => ({
  put: (letter) => sendMessages(client, queueUrl, [{ body: letter }]),
});
