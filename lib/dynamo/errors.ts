// Which DynamoDB failures are an outage (503: the SDK retried them already) or our fault (500).
import {
  ConditionalCheckFailedException,
  type TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import type { Unavailable } from '#lib/dynamo/results.ts';

/** Errors that say "try again later": throttling, DynamoDB's own faults, no answer at all. */
const RETRY_LATER = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'TimeoutError',
  'AbortError',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Cancellation reasons that say "try again later" (the SDK retries only a single request's). */
const RETRY_LATER_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/** A transaction DynamoDB cancelled only for a while: for no failed condition, no invalid item. */
export const isCancelledForNow = (error: unknown): boolean => {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const codes = ((error as TransactionCanceledException).CancellationReasons ?? []).map(
    (r) => r.Code,
  );
  return (
    codes.some((code) => RETRY_LATER_CANCELLATIONS.has(code ?? '')) &&
    codes.every((code) => code === 'None' || RETRY_LATER_CANCELLATIONS.has(code ?? ''))
  );
};

/** An index a stack update added and is still filling (the list's code deploys after the table). */
const INDEX_NOT_READY = /backfilling global secondary index/i;

interface SdkErrorFields {
  $fault?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { statusCode?: number };
}

const isTransient = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const { $fault, code, $metadata, $response } = error as SdkErrorFields;
  // a 5xx whose body the SDK could not even parse (a proxy's HTML error page) is an outage too
  const status = $metadata?.httpStatusCode ?? $response?.statusCode ?? 0;
  return (
    RETRY_LATER.has(error.name) ||
    isCancelledForNow(error) ||
    // an index being added (a deploy's upgrade) cannot be read until it has been filled
    (error.name === 'ValidationException' && INDEX_NOT_READY.test(error.message)) ||
    $fault === 'server' ||
    status >= 500 ||
    (code !== undefined && NETWORK_CODES.has(code))
  );
};

/** A transient failure as a result; anything else is a fault of ours and is thrown on. */
export const unavailableOr = (error: unknown): Unavailable => {
  if (isTransient(error)) return { outcome: 'unavailable', cause: error };
  throw error;
};

/** A store call: an outage as `unavailable`, a failed condition as `onFailedCondition` answers. */
export const orUnavailable =
  <Args extends unknown[], Result>(
    call: (...args: Args) => Promise<NoInfer<Result> | Unavailable>,
    onFailedCondition?: (
      error: ConditionalCheckFailedException,
      args: NoInfer<Args>,
    ) => NoInfer<Result>,
  ) =>
  async (...args: Args): Promise<Result | Unavailable> => {
    try {
      return await call(...args);
    } catch (error) {
      if (onFailedCondition && error instanceof ConditionalCheckFailedException)
        return onFailedCondition(error, args);
      return unavailableOr(error);
    }
  };
