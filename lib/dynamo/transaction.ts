// Items written all or none (TransactWriteItems), sent again while DynamoDB cancels the transaction
// only for a while: the SDK retries no cancelled transaction.
import { setTimeout } from 'node:timers/promises';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { abortable } from '#lib/dynamo/client.ts';
import { isCancelledForNow } from '#lib/dynamo/errors.ts';

/** How many times, in all, a transaction is sent while DynamoDB cancels it only for a while. */
const TRANSACTION_ATTEMPTS = 5;

/** Writes `items` all or none: the index of the item whose condition failed, if one did. */
export const transactWrite = async (
  client: DynamoDBDocumentClient,
  items: NonNullable<TransactWriteCommandInput['TransactItems']>,
  signal: AbortSignal | undefined,
): Promise<number | undefined> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }), abortable(signal));
      return undefined;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).findIndex(
        (reason) => reason.Code === 'ConditionalCheckFailed',
      );
      if (failed >= 0) return failed;
      if (!isCancelledForNow(error) || attempt === TRANSACTION_ATTEMPTS) throw error;
      // full jitter: concurrent writers spread out rather than collide again
      await setTimeout(Math.random() * 25 * 2 ** attempt, undefined, signal ? { signal } : {});
    }
  }
};
