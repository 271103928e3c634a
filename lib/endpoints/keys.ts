// The webhooks table's keys, written once for the stores, the attempts' cursor and the bench: the
// caller's partition (an item per endpoint, one counting them), each endpoint's of its deliveries.

export const ENDPOINT_PREFIX = 'endpoint#';

/** The partition of all the owner's endpoints and their count. */
export const callerPartition = (owner: string) => `caller#${owner}`;

export const endpointKey = (owner: string, id: string) => ({
  pk: callerPartition(owner),
  sk: `${ENDPOINT_PREFIX}${id}`,
});

/** The item whose attribute `endpoints` counts the owner's endpoints. */
export const countKey = (owner: string) => ({ pk: callerPartition(owner), sk: 'count' });

/** The partition of one endpoint's delivery attempts and the events they delivered (14 days). */
export const deliveriesPartition = (endpointId: string) => `endpoint#${endpointId}`;

export const ATTEMPT_PREFIX = 'attempt#';

/** An attempt's item: sorted by when it started, so that a Query reads the newest first. */
export const attemptKey = (
  endpointId: string,
  { at, webhookId, attempt }: { at: string; webhookId: string; attempt: number },
) => ({
  pk: deliveriesPartition(endpointId),
  sk: `${ATTEMPT_PREFIX}${at}#${webhookId}#${attempt}`,
});

/** Any attempt's sort key, as attemptKey makes it: what a page of attempts may start after. */
export const ATTEMPT_SORT_KEY =
  /^attempt#\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#msg_[A-Za-z0-9_-]{1,64}#\d{1,3}$/;

/** The item counting the caller's pings and resends (all its endpoints') of the minute from `minute`. */
export const sendsKey = (owner: string, minute: string) => ({
  pk: callerPartition(owner),
  sk: `sends#${minute}`,
});

/** The item keeping an event the endpoint was sent (its type and body), for a resend. */
export const eventKey = (endpointId: string, webhookId: string) => ({
  pk: deliveriesPartition(endpointId),
  sk: `event#${webhookId}`,
});
