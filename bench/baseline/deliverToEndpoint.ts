// An attempt of a delivery to a caller's own endpoint, bare: each queue message parsed, the
// endpoint read (one GetItem; deleted or disabled: nothing sent), the body signed with each of its
// secrets that signs now (bench/baseline/signature.ts) and POSTed with node:http(s) to the address
// its host resolves to, checked (public unless private addresses are allowed, as ours' rule) and
// pinned, the attempt kept (PutItem), with the event on a first attempt (PutItem); a failure sent
// to the queue again (bench/baseline/deliveries.ts). No schedule, no health, no disabling.
import { createSecretKey } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import type { EndpointDelivery } from '#lib/endpointDeliveries/store.ts';
import { attemptKey, endpointKey, eventKey } from '#lib/endpoints/keys.ts';
import type { StoredEndpoint } from '#lib/endpoints/store.ts';
import { isPublicAddress } from '#lib/ssrf/publicAddress.ts';
import { eachRecord } from './batch.ts';
import { sendDeliveries } from './deliveries.ts';
import { signedHeaders } from './signature.ts';
import { client, webhooksTable } from './store.ts';

const allowPrivate = process.env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
const timeoutMs = Number(process.env.WEBHOOK_TIMEOUT_MS ?? 5000);
const KEPT_SECONDS = 14 * 24 * 3600;

/** POSTs to the first address of the url's host once every one passed the rule: the status. */
const post = async (url: URL, headers: Record<string, string>, body: string) => {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true });
  const [first] = addresses;
  if (
    !first ||
    (!allowPrivate &&
      (url.protocol !== 'https:' || !addresses.every(({ address }) => isPublicAddress(address))))
  )
    throw new Error(`refused ${host}`);
  const { address, family } = first;
  const pinned: LookupFunction = (_host, options, callback) =>
    options.all ? callback(null, [{ address, family }]) : callback(null, address, family);
  return new Promise<number>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: pinned,
      agent: false,
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.on('error', reject);
    request.on('response', (response) =>
      response.resume().on('end', () => resolve(response.statusCode ?? 0)),
    );
    request.end(body);
  });
};

export const handler = eachRecord<SQSRecord>(
  (record) => record.messageId,
  async (record) => {
    const delivery = JSON.parse(record.body) as EndpointDelivery;
    const { owner, endpointId, webhookId, type, body, attempts } = delivery;
    const { Item } = await client.send(
      new GetCommand({
        TableName: webhooksTable,
        Key: endpointKey(owner, endpointId),
        ConsistentRead: true,
      }),
    );
    const endpoint = Item as Pick<StoredEndpoint, 'url' | 'disabled' | 'secrets'> | undefined;
    if (!endpoint || (endpoint.disabled && type !== 'webhook.ping')) return;
    const now = Date.now();
    const keys = endpoint.secrets
      .filter(({ expiresAt }) => !expiresAt || Date.parse(expiresAt) > now)
      .map(({ secret }) => createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64')));
    let status: number | undefined;
    let error: string | undefined;
    try {
      status = await post(new URL(endpoint.url), signedHeaders(keys, webhookId, body), body);
    } catch (failure) {
      error = String(failure);
    }
    const at = new Date(now).toISOString();
    const attempt = attempts + 1;
    const expiresAt = Math.ceil(now / 1000) + KEPT_SECONDS;
    const put = (Item: Record<string, unknown>) =>
      client.send(new PutCommand({ TableName: webhooksTable, Item }));
    const durationMs = Date.now() - now;
    const kept = { webhookId, type, attempt, at, status, error, durationMs, expiresAt };
    await Promise.all([
      put({ ...attemptKey(endpointId, { at, webhookId, attempt }), ...kept }),
      ...(attempts === 0
        ? [put({ ...eventKey(endpointId, webhookId), type, body, expiresAt })]
        : []),
    ]);
    if (status === undefined || status < 200 || status >= 300)
      await sendDeliveries([
        {
          ...delivery,
          attempts: attempt,
          dueAt: Date.now(),
          lastError: error ?? `answered ${status}`,
        },
      ]);
  },
);
