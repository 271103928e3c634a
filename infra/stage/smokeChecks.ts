// The smoke test's checks, run in order against a stage's URL as a client would: what anyone can
// see, then (with a token) a plant's life, then (with a receiver) a webhook's delivery; whatever
// they made is deleted at the end, even when a check failed.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod/mini';
import { Attempt as AttemptSchema, QueuedDelivery } from '#lib/endpointDeliveries/answerSchemas.ts';
import { type Attempt, PING } from '#lib/endpointDeliveries/store.ts';
import { EndpointWithSecret } from '#lib/endpoints/answerSchemas.ts';
import { MAX_ENDPOINTS_PER_CALLER } from '#lib/endpoints/store.ts';
import { ID_MAX, ID_MIN } from '#lib/plants/ids.ts';
import { IdentifiedPlant } from '#lib/plants/schemas.ts';
import { REALM } from '#lib/routes/routeList.ts';
import {
  CheckFailed,
  expectBody,
  expectErrorBody,
  expectShape,
  expectStatus,
  shown,
  stageClient,
} from './smokeHttp.ts';

export interface SmokeOptions {
  /** The API's URL, without a trailing slash. */
  baseUrl: string;
  token?: string | undefined;
  receiver?: string | undefined;
  origin?: string | undefined;
  /** How long the receiver's 2xx answers may take to show in the attempts. */
  waitSeconds: number;
  /** One line of the report. */
  print: (line: string) => void;
  /** Progress while waiting, not part of the report. */
  progress: (line: string) => void;
  /** Aborted (Ctrl-C): no more checks, only the clean-up. */
  interrupted: AbortSignal;
}

interface Check {
  name: string;
  /** The line's detail when it passed; throws CheckFailed otherwise. */
  run: () => Promise<string>;
}

/** The pages of 100 plants the list check reads, at most, looking for its plant (oldest first). */
const MAX_PAGES = 20;

/** An id in the API's whole range (docs/api.md, "Plants"), unlikely to be anyone's. */
const randomId = () =>
  Number(
    BigInt(ID_MIN) + (randomBytes(8).readBigUInt64BE() % (BigInt(ID_MAX) - BigInt(ID_MIN) + 1n)),
  );

const succeeded = ({ status }: Attempt) => status !== undefined && status >= 200 && status < 300;
// the attempt's error is not said: it can name the receiver's host
const outcome = ({ status, attempt }: Attempt) => `${status ?? 'no answer'} (attempt ${attempt})`;

/** How the run went: a summary line's numbers. */
export interface SmokeResult {
  passed: number;
  failed: number;
  /** The checks not run, and the groups skipped for want of a token or receiver. */
  skipped: string[];
  /** Stopped by Ctrl-C before its end. */
  interrupted: boolean;
}

export const runSmoke = async (options: SmokeOptions): Promise<SmokeResult> => {
  const { baseUrl, token, receiver, origin, print, progress, interrupted } = options;

  const call = stageClient(baseUrl, token);

  let passed = 0;
  let failed = 0;
  const skipped: string[] = [];
  const skip = (checks: Check[], why: string) => {
    if (checks.length === 0) return;
    print(`– skipped ${checks.map(({ name }) => name).join(', ')}: ${why}`);
    skipped.push(...checks.map(({ name }) => name));
  };
  /**
   * Runs `checks` in order and answers the first that failed; `dependent`: its failure skips the
   * rest, which need it.
   */
  const run = async (checks: Check[], dependent: boolean) => {
    let firstFailed: string | undefined;
    for (const [index, { name, run }] of checks.entries()) {
      try {
        interrupted.throwIfAborted();
        print(`✓ ${name}: ${await run()}`);
        passed++;
      } catch (error) {
        // a check not run, or a wait cut short, for Ctrl-C: no failure of the stage
        if (interrupted.aborted) {
          skip(checks.slice(index), 'stopped by Ctrl-C');
          break;
        }
        failed++;
        firstFailed ??= name;
        print(`✗ ${name}: ${error instanceof CheckFailed ? error.message : String(error)}`);
        if (dependent) {
          skip(checks.slice(index + 1), `they need ${name}`);
          break;
        }
      }
    }
    return firstFailed;
  };

  const unknownPath = `/smoke-${randomBytes(6).toString('hex')}`;
  // .invalid never resolves (RFC 2606): no stage lists it in corsAllowedOrigins
  const preflightOrigin = origin ?? 'https://smoke.invalid';
  await run(
    [
      {
        name: 'no token',
        run: async () => {
          const answer = await call('GET', '/plants', { auth: false });
          const message = expectErrorBody(answer, 401);
          const challenge = answer.headers.get('www-authenticate') ?? '';
          if (!challenge.startsWith(`Bearer realm="${REALM}"`)) {
            throw new CheckFailed(`WWW-Authenticate: Bearer realm="${REALM}"`, challenge || 'none');
          }
          return `GET /plants 401 ${JSON.stringify(message)}, WWW-Authenticate: ${challenge}`;
        },
      },
      {
        name: 'unknown path',
        run: async () => {
          const message = expectErrorBody(await call('GET', unknownPath), 404);
          return `GET ${unknownPath} 404 "${message.slice(0, 80)}${message.length > 80 ? '…' : ''}"`;
        },
      },
      {
        name: 'CORS preflight',
        run: async () => {
          const answer = await call('OPTIONS', '/plants', {
            auth: false,
            headers: { origin: preflightOrigin, 'access-control-request-method': 'POST' },
          });
          const allowed = answer.headers.get('access-control-allow-origin');
          if (origin !== undefined) {
            if (allowed !== origin) {
              throw new CheckFailed(
                `Access-Control-Allow-Origin: ${origin}`,
                `${allowed ?? 'none'} (${answer.status})`,
                "the stage does not allow this origin: add it to the stage's corsAllowedOrigins and deploy (docs/deployment.md)",
              );
            }
            return `OPTIONS /plants from ${origin} ${answer.status}, allowed`;
          }
          if (allowed !== null) {
            throw new CheckFailed(
              `no Access-Control-Allow-Origin for ${preflightOrigin}`,
              `${allowed} (${answer.status})`,
              'the API allows an origin it does not list: check corsAllowedOrigins (npm start without CORS_ALLOWED_ORIGINS allows every origin: serverless-offline), or give --origin <an allowed origin>',
            );
          }
          return `OPTIONS /plants from ${preflightOrigin} ${answer.status}, no Access-Control-Allow-Origin (give --origin to check an allowed one)`;
        },
      },
    ],
    false,
  );

  /** What this run made and has not deleted yet: the clean-up deletes these. */
  const plantsMade = new Set<number>();
  let plantsAdded = 0;
  let endpointMade: string | undefined;
  try {
    await checksWithToken();
  } finally {
    await cleanUp();
  }
  if (plantsAdded > 0) {
    print(
      `  left behind: its ${plantsAdded} plant.added sent to the stage's operator receiver, if it has one${endpointMade ? `; the attempts of ${endpointMade}, kept 14 days` : ''}`,
    );
  }
  return { passed, failed, skipped, interrupted: interrupted.aborted };

  /** A plant's life, then a webhook's delivery: what needs a token. */
  async function checksWithToken() {
    if (!token) {
      print(
        '– skipped plants and webhooks: no token; give --token <jwt> or set PLANT_STORE_TOKEN (a test caller’s token from the stage’s identity provider, with its read and write scopes when it sets them)',
      );
      skipped.push('plants', 'webhooks');
      return;
    }

    const createPlant = async (id: number, plant: { name: string; tag: string }) => {
      const answer = await call('POST', '/plants', { body: { id, ...plant } });
      expectStatus(answer, 200, {
        409: `another caller's plant has the id ${id} (a chance in 2^54): run again`,
      });
      plantsMade.add(id);
      plantsAdded++;
      expectBody(answer, 200, plant);
      return `200 plant ${id} ${answer.text}`;
    };

    const id = randomId();
    const stamp = new Date().toISOString();
    const plant = { name: `smoke test ${stamp}`, tag: `smoke-${randomBytes(6).toString('hex')}` };
    const patched = { ...plant, name: `${plant.name} (patched)` };
    let etag = '';
    await run(
      [
        { name: 'create', run: () => createPlant(id, plant) },
        {
          name: 'read',
          run: async () => {
            const answer = await call('GET', `/plants/${id}`);
            expectBody(answer, 200, { id, ...plant });
            etag = answer.headers.get('etag') ?? '';
            if (etag !== '"1"') throw new CheckFailed('ETag: "1"', etag || 'none');
            return `200, ETag ${etag}`;
          },
        },
        {
          name: 'list',
          run: async () => {
            // oldest first: a caller with many plants has this one on a later page
            let next: string | undefined = '/plants?limit=100';
            for (let page = 1; next && page <= MAX_PAGES; page++) {
              const answer = await call('GET', next);
              expectStatus(answer, 200);
              const listed = expectShape(answer, z.array(IdentifiedPlant), 'a list of plants');
              if (listed.some((each) => each.id === id)) return `200, plant ${id} on page ${page}`;
              next = answer.headers.get('link')?.match(/<([^>]+)>;\s*rel="next"/)?.[1];
            }
            throw new CheckFailed(
              `plant ${id} in GET /plants`,
              `not in its first ${MAX_PAGES} pages of 100`,
              'use a test caller of its own, with fewer plants',
            );
          },
        },
        {
          name: 'list by tag',
          run: async () => {
            const answer = await call('GET', `/plants?tag=${encodeURIComponent(plant.tag)}`);
            expectBody(answer, 200, [{ id, ...plant }]);
            return `200, only plant ${id} tagged ${plant.tag}`;
          },
        },
        {
          name: 'patch',
          run: async () => {
            const answer = await call('PATCH', `/plants/${id}`, {
              body: { name: patched.name },
              headers: { 'content-type': 'application/merge-patch+json', 'if-match': etag },
            });
            expectBody(answer, 200, { id, ...patched });
            const next = answer.headers.get('etag') ?? '';
            if (next !== '"2"') throw new CheckFailed('ETag: "2"', next || 'none');
            return `200 with If-Match: ${etag}, ETag ${next}`;
          },
        },
        {
          name: 'delete',
          run: async () => {
            const answer = await call('DELETE', `/plants/${id}`);
            expectStatus(answer, 204);
            plantsMade.delete(id);
            return '204';
          },
        },
        {
          name: 'gone',
          run: async () => {
            const message = expectErrorBody(await call('GET', `/plants/${id}`), 404);
            return `GET /plants/${id} 404 ${JSON.stringify(message)}`;
          },
        },
      ],
      true,
    );

    if (!receiver) {
      print(
        '– skipped webhook delivery: no --receiver <https url> (a public https receiver of yours that answers 2xx)',
      );
      skipped.push('webhooks');
      return;
    }

    let pingId = '';
    const webhookPlant = randomId();
    const deadline = Date.now() + options.waitSeconds * 1000;
    /** Waits for a 2xx attempt of `wanted`, with a line of progress every 5 s. */
    const delivered = async (what: string, wanted: (attempt: Attempt) => boolean) => {
      let tried: Attempt[] = [];
      // one look at least: the wait of an earlier check may have used up the time
      for (let polls = 0; polls === 0 || (Date.now() < deadline && !interrupted.aborted); polls++) {
        const answer = await call('GET', `/webhooks/${endpointMade}/attempts?limit=100`);
        expectStatus(answer, 200);
        const attempts = expectShape(answer, z.array(AttemptSchema), 'a list of attempts');
        tried = attempts.filter(wanted).reverse();
        const success = tried.find(succeeded);
        if (success) {
          return `the receiver answered ${success.status} (attempt ${success.attempt}): a signed delivery arrived, as far as the service can tell`;
        }
        if (polls % 5 === 4) {
          const sofar = tried.map(outcome).join(', ') || 'no attempt yet';
          progress(
            `  … waiting for the ${what}: ${sofar}; ${Math.ceil((deadline - Date.now()) / 1000)} s left`,
          );
        }
        await sleep(1000, undefined, { signal: interrupted }).catch(() => undefined);
      }
      throw new CheckFailed(
        `a 2xx answer from the receiver within ${options.waitSeconds} s`,
        tried.map(outcome).join(', ') || 'no attempt',
        'see what the receiver answered (GET /webhooks/{id}/attempts shows each attempt); it must answer 2xx to a POST',
      );
    };

    const setUpFailed = await run(
      [
        {
          name: 'register endpoint',
          run: async () => {
            const answer = await call('POST', '/webhooks', {
              body: {
                url: receiver,
                events: ['plant.added'],
                description: `npm run smoke ${stamp}`,
              },
            });
            expectStatus(answer, 201, {
              400: 'the service refused the receiver: a deployed stage takes only a public https URL (docs/webhooks.md, "A caller\'s own endpoints")',
              409: `the test caller has ${MAX_ENDPOINTS_PER_CALLER} endpoints already, the most a caller may have: delete one (GET /webhooks, then DELETE /webhooks/{id}; one an interrupted run left has the description "npm run smoke ...") and run again`,
            });
            const { id } = expectShape(answer, EndpointWithSecret, 'an endpoint with its secret');
            endpointMade = id;
            return `201 ${id} for the receiver`;
          },
        },
        {
          name: 'ping',
          run: async () => {
            const answer = await call('POST', `/webhooks/${endpointMade}/ping`);
            expectStatus(answer, 202);
            pingId = expectShape(answer, QueuedDelivery, '{"webhookId"}').webhookId;
            return `202 ${pingId}`;
          },
        },
        {
          name: 'create for the webhook',
          run: () =>
            createPlant(webhookPlant, { name: `smoke test webhook ${stamp}`, tag: plant.tag }),
        },
      ],
      true,
    );
    const deliveries: Check[] = [
      {
        name: 'webhook ping delivered',
        run: () =>
          delivered(
            `ping ${pingId}`,
            (attempt) => attempt.webhookId === pingId && attempt.type === PING,
          ),
      },
      {
        name: 'webhook plant.added delivered',
        run: () => delivered('plant.added', (attempt) => attempt.type === 'plant.added'),
      },
    ];
    if (setUpFailed) skip(deliveries, `they need ${setUpFailed}`);
    else await run(deliveries, false);
    if (failed === 0 && !interrupted.aborted) {
      print(
        '  verifying the signature is the receiver’s job: docs/webhooks.md, "Verifying a signature"',
      );
    }
  }

  /** Deletes what the checks made and did not delete; a failure says how to delete it by hand. */
  async function cleanUp() {
    const left = [
      ...[...plantsMade].map((id) => `/plants/${id}`),
      ...(endpointMade ? [`/webhooks/${endpointMade}`] : []),
    ];
    if (left.length === 0) return;
    const problems: string[] = [];
    for (const path of left) {
      const problem = await call('DELETE', path).then(
        // 404: gone already
        (answer) => (answer.status === 204 || answer.status === 404 ? undefined : shown(answer)),
        (error: Error) => error.message,
      );
      if (problem) problems.push(`${path}: ${problem}`);
    }
    if (problems.length === 0) {
      passed++;
      print(`✓ clean up: deleted ${left.join(', ')}`);
    } else {
      failed++;
      print(
        `✗ clean up: expected 204, got ${problems.join('; ')}: delete it yourself (curl -X DELETE ${baseUrl}<path> -H "Authorization: Bearer $TOKEN")`,
      );
    }
  }
};
