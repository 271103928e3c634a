// One delivery attempt of a webhook: signed, POSTed with a timeout, and its outcome classified.
// Any 2xx is delivered; anything else, no answer or no answer in time is worth another attempt.
import { signatureHeader } from '#lib/webhooks/signature.ts';

export interface WebhookMessage {
  webhookId: string;
  body: string;
}

export type DeliveryOutcome =
  | { outcome: 'delivered'; status: number }
  /** The receiver answered, but not 2xx (a redirect included: it is not followed). */
  | { outcome: 'refused'; status: number }
  /** No answer: the connection failed or the receiver did not answer within the timeout. */
  | { outcome: 'unreachable'; reason: string };

export interface DeliveryTarget {
  url: string;
  /** The signing keys now: they may change while the container lives (a rotation). */
  signingKeys: () => Promise<readonly Buffer[]>;
  timeoutMs: number;
}

export const deliverOnce = async (
  { url, signingKeys, timeoutMs }: DeliveryTarget,
  { webhookId, body }: WebhookMessage,
): Promise<DeliveryOutcome> => {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = signatureHeader(await signingKeys(), { id: webhookId, timestamp, body });
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'plant-store-webhooks',
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // the answer's body is not needed: release the connection
    await response.body?.cancel();
    return response.status >= 200 && response.status < 300
      ? { outcome: 'delivered', status: response.status }
      : { outcome: 'refused', status: response.status };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = timedOut
      ? `no answer within ${timeoutMs} ms`
      : (cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
    return { outcome: 'unreachable', reason };
  }
};

/** What a failed outcome says, for a log line or a dead letter. */
export const describeOutcome = (outcome: DeliveryOutcome) =>
  outcome.outcome === 'unreachable' ? outcome.reason : `answered ${outcome.status}`;
