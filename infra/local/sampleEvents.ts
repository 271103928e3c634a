// `npm run events [-- --out DIR]`: a sample event per function in events/, for `npx sls invoke local`
// while npm start runs (docs/local-development.md); each route's carries a local token.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { marshall } from '@aws-sdk/util-dynamodb';
import { eventBody, newWebhookId, PING } from '#lib/endpointDeliveries/store.ts';
import { newEndpointId } from '#lib/endpoints/store.ts';
import { plantAddedEvent } from '#lib/operatorWebhook/plantAdded.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { ROUTE_NAMES, ROUTES, type RouteEntry, routeKey } from '#lib/routes/routeList.ts';
import { httpApiEvent } from '../events/httpApi.ts';
import { retryQueueEvent, streamInsertEvent } from '../events/webhooks.mjs';
import { DEFAULT_TOKEN, ensureLocalKeys, mintLocalToken } from './keys.ts';
import { localDataDir, repoRoot } from './paths.ts';
import { BUCKET } from './webhooks.ts';

/** The plant every sample is about: the one `npm start` offers to create. */
const plant = { id: 1, name: 'Monstera', tag: 'indoor' };

/** What each kind of route is sent: a plant's, the plant; an endpoint's, one on this machine. */
const samples = {
  plants: { id: String(plant.id), body: plant },
  // an id of the right shape (no endpoint has it until one is registered: 404)
  webhooks: { id: newEndpointId(), body: { url: 'http://127.0.0.1:9/hooks' } },
};

/** Each route's request: its path's parameters (but its id, none known) and, for a write, its
 * body, by what it is about. */
const routeEvent = (route: RouteEntry, token: string) => {
  const { method, path } = route;
  const sample = samples[path.startsWith('/webhooks') ? 'webhooks' : 'plants'];
  const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => name);
  const parameters = Object.fromEntries(
    names.map((name) => [name, name === 'id' ? sample.id : '']),
  );
  const sendsBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  return httpApiEvent({
    method,
    path: path.replace(/\{(\w+)\}/g, (_, name: string) => parameters[name] ?? ''),
    route: routeKey(route),
    ...(Object.keys(parameters).length > 0 && { pathParameters: parameters }),
    headers: {
      authorization: `Bearer ${token}`,
      ...(sendsBody && { 'content-type': 'application/json' }),
    },
    // a route that takes no body (a rotation) ignores one
    body: sendsBody ? JSON.stringify(sample.body) : null,
  });
};

/** The plant as the table stores it, and its stream record: deliverPlantAdded's first attempt. */
const createdAt = new Date().toISOString();
const stored: StoredPlant = { ...plant, createdAt, createdBy: DEFAULT_TOKEN.sub, version: 1 };
const inserted = streamInsertEvent('1', marshall(stored));

try {
  const { values } = parseArgs({
    options: { out: { type: 'string', default: join(repoRoot, 'events') } },
  });
  const outDir = resolve(values.out);
  const { privateJwk } = await ensureLocalKeys(localDataDir());
  const token = await mintLocalToken(privateJwk, DEFAULT_TOKEN);
  const events: Record<string, unknown> = {
    ...Object.fromEntries(ROUTE_NAMES.map((name) => [name, routeEvent(ROUTES[name], token)])),
    // a path no route has: the 404 every such request gets
    unmatchedRoute: httpApiEvent({ method: 'GET', path: '/plant', route: '$default' }),
    deliverPlantAdded: inserted,
    // the same event after a first attempt that failed, due now: retryPlantAdded's next attempt
    retryPlantAdded: retryQueueEvent('1', {
      ...plantAddedEvent(inserted.Records[0] ?? {}),
      attempts: 1,
      lastError: 'answered 503',
      dueAt: Date.now(),
    }),
    // the plant's insert, for its owner's endpoints (none until one is registered)
    queueEndpointEvents: inserted,
    // a ping of the sample endpoint: dropped while no endpoint has its id
    deliverToEndpoint: retryQueueEvent('1', {
      owner: DEFAULT_TOKEN.sub,
      endpointId: samples.webhooks.id,
      webhookId: newWebhookId(),
      type: PING,
      body: eventBody(PING, new Date(), { endpointId: samples.webhooks.id }),
      attempts: 0,
      dueAt: Date.now(),
    }),
    // S3's notification of a batch the stream functions gave up on: npm start's bucket lacks this
    // object, so the function hands it back, as it would one expired
    keepFailedStreamRecords: retryQueueEvent('1', {
      Records: [{ s3: { bucket: { name: BUCKET }, object: { key: 'aws/lambda/sample' } } }],
    }),
  };
  mkdirSync(outDir, { recursive: true });
  for (const [name, event] of Object.entries(events))
    writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(event, null, 2)}\n`);
  // sls reads --path from the repository's folder
  const shown = outDir.startsWith(repoRoot + sep) ? relative(repoRoot, outDir) : outDir;
  process.stdout.write(
    `Wrote a sample event for each function to ${shown}/ (tokens valid for ${DEFAULT_TOKEN.ttlSeconds / 60} minutes). With npm start running:\n` +
      `  npx sls invoke local --stage local -f createPlant --path ${join(shown, 'createPlant.json')}\n`,
  );
} catch (error) {
  process.stderr.write(
    `${error instanceof Error ? error.message : String(error)}\nusage: npm run events -- [--out DIR]\n`,
  );
  process.exit(2);
}
