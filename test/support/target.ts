// What the e2e HTTP suite talks to: its own `npm start` (as in CI), or, when PLANT_STORE_URL is set
// (npm run smoke: test/smoke/smoke.ts), a deployed stage as its one test caller. Tests tagged
// `local` never run against a stage (the runner's --tags-filter); what a test creates on a stage
// is deleted when it ends, and written to PLANT_STORE_LEDGER for the runner to delete on Ctrl-C.

import { randomInt } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { Middleware } from 'openapi-fetch';
import { onTestFinished } from 'vitest';
import { ID_MAX } from '#lib/plants/ids.ts';
import { startReceiver } from './endpointReceiver.ts';
import { type LocalService, startLocalService } from './localService.ts';
import { typedClient } from './typedClient.ts';

/** An origin the local stack allows (CORS_ALLOWED_ORIGINS), as a stage's corsAllowedOrigins. */
const LOCAL_ORIGIN = 'https://app.example.test';

/** How long a receiver's answers may take to show in an endpoint's attempts, in seconds. */
export const WAIT_SECONDS = Number(process.env.PLANT_STORE_WAIT || 30);

export interface Target {
  baseUrl: string;
  /** A deployed stage: one caller, its data shared with real callers. */
  stage: boolean;
  /** A token of `caller`: minted with the local key, or the stage's one test caller's. */
  token: (caller: string) => Promise<string>;
  /** Plant `n` of this file: `n` locally; on a stage an id of this run, unlikely to be anyone's. */
  plantId: (n: number) => number;
  /** An endpoint URL that is no one's receiver: the API's own (public on a stage), a 404 to a POST. */
  endpointUrl: (path: string) => string;
  /** A receiver that answers 2xx: a local one, or the stage's --receiver. */
  receiver: () => Promise<string>;
  /** An origin the service allows in CORS, when known. */
  origin: string | undefined;
  api: ReturnType<typeof typedClient>;
  /** The local stack, when it is the target: for what only it offers (its lines, its tables). */
  local: LocalService | undefined;
  stop: () => Promise<void>;
}

export const startTarget = async (): Promise<Target> => {
  const { PLANT_STORE_URL: url, PLANT_STORE_TOKEN: token = '', PLANT_STORE_RECEIVER } = process.env;
  const local = url
    ? undefined
    : await startLocalService(undefined, { CORS_ALLOWED_ORIGINS: LOCAL_ORIGIN });
  const baseUrl = url ?? local?.baseUrl ?? '';
  const api = typedClient(baseUrl);
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
  const base = randomInt(0, 2 ** 47) * 64;
  if (url) api.use(cleanUp(baseUrl));
  return {
    baseUrl,
    stage: url !== undefined,
    token: async (caller) => (local ? (await local.token('--sub', caller)).trim() : token),
    plantId: (n) => (local ? n : (base + n) % ID_MAX),
    endpointUrl: (path) => `${baseUrl}${path}`,
    receiver: async () => {
      if (PLANT_STORE_RECEIVER || !local) return PLANT_STORE_RECEIVER ?? '';
      receivers.push(await startReceiver());
      return receivers.at(-1)?.url ?? '';
    },
    origin: local ? LOCAL_ORIGIN : process.env.PLANT_STORE_ORIGIN,
    api,
    local,
    stop: async () => {
      await Promise.all([local?.stop(), ...receivers.map((receiver) => receiver.stop())]);
    },
  };
};

/** Each plant or endpoint created on a stage: deleted when its test ends, in the ledger till then. */
const cleanUp = (baseUrl: string): Middleware => {
  const plantIds = new WeakMap<Request, number>();
  return {
    async onRequest({ request, schemaPath }) {
      if (request.method === 'POST' && schemaPath === '/plants') {
        plantIds.set(request, ((await request.clone().json()) as { id: number }).id);
      }
      return undefined;
    },
    async onResponse({ request, response, schemaPath }) {
      if (request.method !== 'POST' || !['/plants', '/webhooks'].includes(schemaPath)) return;
      if (response.status !== 200 && response.status !== 201) return;
      const id = plantIds.get(request) ?? ((await response.clone().json()) as { id: string }).id;
      const path = `${schemaPath}/${id}`;
      const ledger = process.env.PLANT_STORE_LEDGER;
      if (ledger) appendFileSync(ledger, `${path}\n`);
      const authorization = request.headers.get('authorization') ?? '';
      onTestFinished(async () => {
        await fetch(`${baseUrl}${path}`, { method: 'DELETE', headers: { authorization } });
      });
    },
  };
};

/** The query of a page's Link to the next, followed only on the API's own origin. */
export const nextPage = (baseUrl: string, response: Response) => {
  const link = response.headers.get('link');
  if (!link) return undefined;
  const next = new URL(/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? '');
  if (next.origin !== new URL(baseUrl).origin) {
    throw new Error(`a Link to the API's origin ${new URL(baseUrl).origin}, not ${next.origin}`);
  }
  return next.searchParams;
};
