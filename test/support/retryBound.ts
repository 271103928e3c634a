// The longest one store request can take, retries included, derived from the DynamoDB client's
// configuration (lib/config/store.ts) and the AWS SDK's standard retry strategy, in one place. The
// reliability suite checks it against the SDK, against a misbehaving DynamoDB, and against the
// function timeout in serverless.yml.
//
// - An attempt lasts at most its request timeout: the SDK starts that timer with the attempt (it
//   covers connecting too) and, with throwOnRequestTimeout (lib/dynamo/client.ts), fails the
//   attempt when it fires. The larger of the connect and request timeouts is taken, to be safe.
// - Between attempts the SDK waits a random delay below base × 2^retry, capped at 20 s: the base
//   is 1000 ms after a throttling error and 25 ms (DynamoDB's) after other transient errors. Any
//   retry may follow a throttling error, so the bound takes that base for every retry.
// - A server may lengthen a delay by up to 5 s with a Retry-After or x-amz-retry-after header.
//   DynamoDB sends neither; the bound assumes none. (The handler's early timeout still answers
//   503 before Lambda's own timeout, whatever happens.)
import type { DynamoDbSettings } from '#lib/config/store.ts';

/** The SDK's backoff base after a throttling error (@smithy/core Retry.throttlingDelay()). */
export const THROTTLING_BACKOFF_BASE_MS = 1000;
/** The SDK's cap on one backoff delay (@smithy/core MAXIMUM_RETRY_DELAY). */
export const MAX_BACKOFF_MS = 20_000;

/** The most the SDK waits in all between `maxAttempts` attempts. */
export const retryBackoffBoundMs = (maxAttempts: number): number => {
  let total = 0;
  for (let retry = 0; retry < maxAttempts - 1; retry++) {
    total += Math.min(THROTTLING_BACKOFF_BASE_MS * 2 ** retry, MAX_BACKOFF_MS);
  }
  return total;
};

/** The most one store request takes, every attempt and every backoff included. */
export const storeRequestBoundMs = ({
  maxAttempts,
  connectTimeoutMs,
  requestTimeoutMs,
}: Pick<DynamoDbSettings, 'maxAttempts' | 'connectTimeoutMs' | 'requestTimeoutMs'>): number =>
  maxAttempts * Math.max(connectTimeoutMs, requestTimeoutMs) + retryBackoffBoundMs(maxAttempts);
