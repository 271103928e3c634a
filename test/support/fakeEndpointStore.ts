// The unit tests' store of webhook endpoints: in memory, with the real one's semantics (ownership,
// the limit of ten, oldest first, rotation keeping the old secret beside the new), and an outage
// it can be told to have; beside it, the attempts (with the pings and resends of each minute) and
// the deliveries queue.
import {
  type Attempt,
  type AttemptStore,
  type DeliveryQueue,
  type EndpointDelivery,
  MAX_SENDS_PER_MINUTE,
  type SentEvent,
} from '#lib/endpointDeliveries/store.ts';
import { attemptKey } from '#lib/endpoints/keys.ts';
import {
  type EndpointContent,
  type EndpointHealth,
  type EndpointStore,
  MAX_ENDPOINTS_PER_CALLER,
  QUICK_ANSWERS_TO_LEAVE,
  type StoredEndpoint,
} from '#lib/endpoints/store.ts';

export class FakeEndpointStore implements EndpointStore {
  /** The endpoints, by id. */
  readonly endpoints = new Map<string, StoredEndpoint>();
  /** While set, every method answers unavailable. */
  unavailable = false;

  private answer<T>(result: () => T): Promise<T | { outcome: 'unavailable'; cause: unknown }> {
    return Promise.resolve(
      this.unavailable ? { outcome: 'unavailable', cause: new Error('throttled') } : result(),
    );
  }

  private owned(owner: string, id: string) {
    const endpoint = this.endpoints.get(id);
    return endpoint?.owner === owner ? endpoint : undefined;
  }

  create(owner: string, endpoint: Omit<StoredEndpoint, 'owner'>) {
    return this.answer(() => {
      const count = [...this.endpoints.values()].filter((e) => e.owner === owner).length;
      if (count >= MAX_ENDPOINTS_PER_CALLER) return { outcome: 'limitReached' as const };
      const stored = { ...endpoint, owner };
      this.endpoints.set(endpoint.id, stored);
      return { outcome: 'created' as const, endpoint: stored };
    });
  }

  list(owner: string) {
    return this.answer(() => ({
      outcome: 'list' as const,
      endpoints: [...this.endpoints.values()]
        .filter((e) => e.owner === owner)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    }));
  }

  get(owner: string, id: string) {
    return this.answer(() => {
      const endpoint = this.owned(owner, id);
      return endpoint
        ? { outcome: 'found' as const, endpoint }
        : { outcome: 'notFound' as const, reason: 'absent' as const };
    });
  }

  replace(owner: string, id: string, content: EndpointContent) {
    return this.answer(() => {
      const endpoint = this.owned(owner, id);
      if (!endpoint) return { outcome: 'notFound' as const, reason: 'absent' as const };
      const replaced: StoredEndpoint = {
        ...endpoint,
        ...content,
        disabledReason: content.disabled ? endpoint.disabledReason : undefined,
        // as the real one: its standing stays with the url that earned it, the failures' clock too
        standingUrl: endpoint.standingUrl ?? endpoint.url,
        quickAnswers: undefined,
      };
      this.endpoints.set(id, replaced);
      return { outcome: 'replaced' as const, endpoint: replaced };
    });
  }

  rotateSecret(owner: string, id: string, rotation: { secret: string; keepOldUntil: string }) {
    return this.answer(() => {
      const endpoint = this.owned(owner, id);
      if (!endpoint) return { outcome: 'notFound' as const, reason: 'absent' as const };
      const current = endpoint.secrets.find((s) => s.expiresAt === undefined);
      const rotated: StoredEndpoint = {
        ...endpoint,
        secrets: [
          { secret: rotation.secret },
          ...(current ? [{ secret: current.secret, expiresAt: rotation.keepOldUntil }] : []),
        ],
      };
      this.endpoints.set(id, rotated);
      return { outcome: 'rotated' as const, endpoint: rotated };
    });
  }

  delete(owner: string, id: string) {
    return this.answer(() => {
      if (!this.owned(owner, id))
        return { outcome: 'notFound' as const, reason: 'absent' as const };
      this.endpoints.delete(id);
      return { outcome: 'deleted' as const };
    });
  }

  async setHealth(owner: string, id: string, health: EndpointHealth) {
    if (this.unavailable) throw new Error('throttled');
    const endpoint = this.owned(owner, id);
    if (!endpoint) return false;
    // as the real one: the first failure stays; a disabling counts only failures still counted,
    // and only of the url that answered
    if ('url' in health && endpoint.url !== health.url) return false;
    if (health.kind === 'disabled' && health.failingSince !== undefined)
      if (endpoint.failingSince !== health.failingSince) return false;
    if (health.kind === 'healthy' && (endpoint.quickAnswers ?? 0) < QUICK_ANSWERS_TO_LEAVE - 1)
      return false;
    const { failingSince, slowSince, quickAnswers, ...rest } = endpoint;
    const next: StoredEndpoint =
      health.kind === 'healthy'
        ? { ...rest, standingUrl: health.url }
        : health.kind === 'quick'
          ? { ...rest, slowSince: slowSince ?? health.since, quickAnswers: (quickAnswers ?? 0) + 1 }
          : health.kind === 'failing'
            ? { ...rest, slowSince, failingSince: failingSince ?? health.since }
            : health.kind === 'slow'
              ? { ...rest, slowSince: slowSince ?? health.since }
              : {
                  ...rest,
                  slowSince: slowSince ?? health.since,
                  disabled: true,
                  disabledReason: health.reason,
                };
    this.endpoints.set(id, next);
    return true;
  }
}

/** The unit tests' attempt store: in memory, newest first, positions the index of the next page. */
export class FakeAttemptStore implements AttemptStore {
  /** Each endpoint's attempts and sent events. */
  readonly attempts = new Map<string, Attempt[]>();
  readonly events = new Map<string, SentEvent>();

  async record(endpointId: string, attempt: Attempt, event?: SentEvent) {
    this.attempts.set(endpointId, [...(this.attempts.get(endpointId) ?? []), attempt]);
    // as the real one: an event is kept as first sent
    const key = `${endpointId} ${attempt.webhookId}`;
    if (event && !this.events.has(key)) this.events.set(key, event);
  }

  async list(endpointId: string, { limit, after }: { limit: number; after?: string | undefined }) {
    const all = [...(this.attempts.get(endpointId) ?? [])].sort((a, b) => b.at.localeCompare(a.at));
    // positions as the real store's: the last attempt's sort key
    const keyOf = (attempt: Attempt) => attemptKey(endpointId, attempt).sk;
    const start = after === undefined ? 0 : all.findIndex((a) => keyOf(a) === after) + 1;
    const page = all.slice(start, start + limit);
    const last = page.at(-1);
    return {
      outcome: 'page' as const,
      attempts: page,
      ...(start + limit < all.length && last ? { next: keyOf(last) } : {}),
    };
  }

  async event(endpointId: string, webhookId: string) {
    const event = this.events.get(`${endpointId} ${webhookId}`);
    return event ? { outcome: 'found' as const, event } : { outcome: 'notFound' as const };
  }

  /** Each caller's pings and resends, by minute. */
  readonly sends = new Map<string, number>();

  async countSend(owner: string) {
    const at = Date.now();
    const key = `${owner} ${Math.floor(at / 60_000)}`;
    const count = this.sends.get(key) ?? 0;
    if (count >= MAX_SENDS_PER_MINUTE) {
      return {
        outcome: 'limited' as const,
        retryAfterSeconds: 60 - Math.floor((at % 60_000) / 1000),
      };
    }
    this.sends.set(key, count + 1);
    return { outcome: 'counted' as const, minute: key };
  }

  async uncountSend(_owner: string, minute: string) {
    this.sends.set(minute, Math.max((this.sends.get(minute) ?? 0) - 1, 0));
  }
}

/** The unit tests' deliveries queue: what it was sent; while `failing`, it throws as SQS would. */
export class FakeDeliveryQueue implements DeliveryQueue {
  readonly sent: EndpointDelivery[] = [];
  failing = false;

  async send(deliveries: readonly EndpointDelivery[]) {
    if (this.failing) throw new Error('the endpoint-deliveries queue is unreachable');
    this.sent.push(...deliveries);
  }
}
