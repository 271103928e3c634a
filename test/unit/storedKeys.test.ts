// Keys and ids the service has already stored or handed out must keep their values: a changed
// digest would orphan the tag index's items, put a caller's queued messages under two tenants of
// the fair queue, give a redriven event a new webhook-id (a receiver would take it twice) and
// refuse every page link in flight.
import { describe, expect, it } from 'vitest';
import { sealCursor } from '#lib/http/paging.ts';
import { creatorTagOf } from '#lib/plants/creatorTag.ts';
import { tenantOf } from '#lib/webhooks/retries.ts';
import { eventWebhookId } from '#lib/webhooks/signature.ts';

describe('stored keys and ids keep their values', () => {
  it('the tag index key of a creator and a tag', () => {
    expect(creatorTagOf('alice', 'indoor')).toBe('OUKoUzuahpSazmnRd6JeyCd2pbfGbph31DlTOeU9OAE');
  });
  it("a caller's tenant on a fair queue", () => {
    expect(tenantOf('alice')).toBe('K9gGyX8OAK8aH8Myj6djqSaXI8jbj6xPk69x2xhtbpA');
  });
  it("an event's webhook-id", () => {
    expect(eventWebhookId('a', 1)).toBe('msg_TzlaLp6hwGgDSNOEE1RYJw6eb1rzV2FR');
  });
  it("a page link's cursor", () => {
    expect(sealCursor({ id: 7 }, 'plants')).toBe('eyJpZCI6N30.PrsCIaAy1naI7ajO');
  });
});
