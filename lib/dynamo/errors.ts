// Which DynamoDB failures are an outage (the caller may retry: 503) and which are a fault of ours
// (500). The SDK has already retried the transient ones within its bounds (lib/config/store.ts).
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

/** A TransactionCanceledException's reasons, one per item of the transaction ('None' for most). */
interface TransactionCancelled {
  CancellationReasons?: { Code?: string }[];
}

/**
 * Why DynamoDB cancelled a transaction, per item, that says "try again later": another
 * transaction on the same item, or throttling (which the SDK retries for a single request only).
 */
const RETRY_LATER_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/** A transaction DynamoDB cancelled only for a while: for no failed condition, no invalid item. */
export const isCancelledForNow = (error: unknown): boolean => {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const codes = ((error as TransactionCancelled).CancellationReasons ?? []).map((r) => r.Code);
  return (
    codes.some((code) => RETRY_LATER_CANCELLATIONS.has(code ?? '')) &&
    codes.every((code) => code === 'None' || RETRY_LATER_CANCELLATIONS.has(code ?? ''))
  );
};

/**
 * What DynamoDB says of an index a stack update added and is still filling from the stored items.
 * (The list function's code is updated only after the table: its role names the table, so
 * CloudFormation never runs it against an index that does not exist yet.)
 */
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
