// One delivery attempt of a webhook: signed, POSTed with a timeout, its outcome classified (2xx
// delivered, 410 never again, else another attempt after at least a 429's or 503's Retry-After).
import type { KeyObject } from 'node:crypto';
import { webhookHeaders } from '#lib/webhooks/signature.ts';
import { postFields, startSubsegment } from '#lib/xray.ts';

export type DeliveryOutcome =
  | { outcome: 'delivered'; status: number }
  /** The receiver answered, but not 2xx (a redirect included: it is not followed). */
  | { outcome: 'refused'; status: number; retryAfterMs?: number }
  /** 410 Gone: the endpoint is no more; no attempt follows. */
  | { outcome: 'gone'; status: 410 }
  /** No answer: the connection failed or the receiver did not answer within the timeout. */
  | { outcome: 'unreachable'; reason: string };

export interface DeliveryTarget {
  url: string;
  /** The signing keys now: they may change while the container lives (a rotation). */
  signingKeys: () => Promise<readonly KeyObject[]>;
  timeoutMs: number;
}

export const deliverOnce = async (
  { url, signingKeys, timeoutMs }: DeliveryTarget,
  { webhookId, body }: { webhookId: string; body: string },
): Promise<DeliveryOutcome> => {
  // keys that cannot be read fail the invocation (the event is offered again), not the attempt
  const headers = webhookHeaders(await signingKeys(), webhookId, body);
  // to the status line, whole: fetch's resource timing gives no connect time (undici's is its start)
  const post = startSubsegment('POST');
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const { status } = response;
    post?.end(postFields(url, { status }));
    // the answer's body is not needed: release the connection
    await response.body?.cancel();
    return statusOutcome(status, retryAfter(response.headers.get('retry-after'), Date.now()));
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = timedOut
      ? `no answer within ${timeoutMs} ms`
      : (cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
    post?.end(postFields(url, { reason }));
    return { outcome: 'unreachable', reason };
  }
};

/** What a receiver's answer means: 2xx delivered, 410 gone, else refused (Retry-After: 429, 503). */
export const statusOutcome = (status: number, retryAfterMs?: number): DeliveryOutcome => {
  if (status >= 200 && status < 300) return { outcome: 'delivered', status };
  if (status === 410) return { outcome: 'gone', status };
  const asksToWait = retryAfterMs !== undefined && (status === 429 || status === 503);
  return asksToWait ? { outcome: 'refused', status, retryAfterMs } : { outcome: 'refused', status };
};

/** A Retry-After header's wait in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export const retryAfter = (header: string | null, now: number): number | undefined => {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** What a failed outcome says, for a log line or a dead letter. */
export const describeOutcome = (outcome: DeliveryOutcome) => {
  if (outcome.outcome === 'unreachable') return outcome.reason;
  return outcome.outcome === 'gone'
    ? 'answered 410 Gone: the receiver says the endpoint is gone'
    : `answered ${outcome.status}`;
};
