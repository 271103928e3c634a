// The metrics every route shares: refusals and faults that the pipeline itself answers. A route
// names the metrics of its own outcomes (PlantsCreated, ...) in its replies.
export const METRICS = {
  authFailures: 'AuthFailures',
  validationFailures: 'ValidationFailures',
  keySetUnavailable: 'KeySetUnavailable',
  internalErrors: 'InternalErrors',
  /** The request outran the function's time: a dependency (in practice the store) was too slow. */
  timeouts: 'StoreUnavailable',
} as const;
