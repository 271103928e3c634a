// What every store answers besides its own results: an outage, and a thing that is not there.

/** The store is throttling or unreachable after the client's bounded retries. */
export type Unavailable = { outcome: 'unavailable'; cause: unknown };

/** Why a thing counts as not there: for the log only, never for the caller. */
export type NotFound = { outcome: 'notFound'; reason: 'absent' | 'notOwner' };

export interface StoreCallOptions {
  signal?: AbortSignal;
}

/** A store's method: its arguments, then the call's options; its results or an outage. */
export type StoreCall<Args extends unknown[], Result> = (
  ...args: [...Args, options?: StoreCallOptions]
) => Promise<Result>;
