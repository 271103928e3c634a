// The load test's engine: several callers send a seeded mix of creates (fresh, identical retries,
// conflicting duplicates), reads, lists, updates (with the current ETag, or a stale one) and
// deletes, a bounded number in flight. Each plant is worked on by one request at a time, so that
// every answer has one right status, checked as it comes. At the end each caller's plants are
// listed page by page through the API: every acknowledged create that was not deleted must be there
// exactly once with its last acknowledged update, nothing deleted may come back, and no caller may
// see another's plant.

export type Operation =
  | 'create'
  | 'retry'
  | 'conflict'
  | 'read'
  | 'readStranger'
  | 'list'
  | 'listTag'
  | 'update'
  | 'staleUpdate'
  | 'delete';

/** The share of each operation, when a plant for it is there (else a create is sent). */
const MIX: [Operation, number][] = [
  ['create', 0.3],
  ['retry', 0.05],
  ['conflict', 0.05],
  ['read', 0.15],
  ['readStranger', 0.05],
  ['list', 0.05],
  ['listTag', 0.05],
  ['update', 0.15],
  ['staleUpdate', 0.05],
  ['delete', 0.1],
];

interface Content {
  name: string;
  tag?: string;
}

/** A plant as the test knows it from acknowledged answers. */
interface ModelPlant extends Content {
  id: number;
  owner: number;
  version: number;
  /** As created: an identical create is a replay only while nothing changed it. */
  original: Content;
  deleted: boolean;
  /** A request on it is in flight: no other request picks it. */
  busy: boolean;
  /** A request on it got no answer or a 5xx: its state is not known. */
  uncertain: boolean;
}

export interface Caller {
  name: string;
  token: string;
}

export interface LoadOptions {
  /** The service, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** The callers, each with a token the service accepts for its own sub. */
  callers: Caller[];
  requests: number;
  concurrency: number;
  /** Seeds the choice of requests and the ids (random unless given). */
  seed?: number;
  /**
   * Reach `concurrency` in flight over this long (default 8000 ms; 0: all at once). A burst of
   * cold starts is an artifact of serverless-offline on one machine (see effectiveStatus).
   */
  rampUpMs?: number;
  /** Called about once a second and at every tenth of the run. */
  onProgress?: (progress: Progress) => void;
  /** Called with every answer, e.g. to check it against the published contract. */
  onResponse?: (response: Answer & { method: string; path: string }) => void;
}

export interface Progress {
  done: number;
  total: number;
  inFlight: number;
  elapsedMs: number;
  statuses: ReadonlyMap<string, number>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

interface Sent {
  operation: Operation;
  /** The HTTP status (see effectiveStatus), or `error` when no answer came. */
  status: number | 'error';
  expected: number;
  /** Why the answer is wrong, when it is. */
  problem?: string;
  latencyMs: number;
}

export interface LoadRun {
  options: LoadOptions;
  sent: Sent[];
  /** What the answers acknowledged, per plant id. */
  plants: Map<number, ModelPlant>;
  durationMs: number;
  /** Network errors, by message. */
  errors: Map<string, number>;
}

// ---------------------------------------------------------------------------------------------

/** A small seedable generator (mulberry32): the same seed sends the same requests. */
const randomFrom = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

const NAMES = ['Monstera', 'Fern', 'Ficus lyrata', 'Aloe "vera"', 'Pilea 🌿', 'Æschynanthus', ''];
const TAGS = ['indoor', 'outdoor', 'succulent', 'vine ∞', ''];

const statusKey = (status: number | 'error') => String(status);

/**
 * serverless-offline answers its own Lambda timeout with a 200 and a LambdaTimeoutError body, where
 * API Gateway would answer 5xx: that answer counts as the 504 it stands for, never as a 200. (Its
 * timer starts before a cold worker has loaded the handler, which does not know that time is gone:
 * a burst of cold starts on one machine can run it out.)
 */
const effectiveStatus = (status: number, body: string) =>
  status === 200 && body.includes('"LambdaTimeoutError"') ? 504 : status;

const plantBody = ({ name, tag }: Content) => (tag === undefined ? { name } : { name, tag });
const json = (value: unknown) => JSON.stringify(value);
const parse = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
};

/** The URL of the next page in a Link header, or undefined on the last page. */
export const nextPage = (headers: Headers): string | undefined =>
  /^<([^>]+)>; rel="next"$/.exec(headers.get('link') ?? '')?.[1];

export const runLoad = async (options: LoadOptions): Promise<LoadRun> => {
  const { baseUrl, callers, requests, concurrency, onProgress, onResponse } = options;
  const rampUpMs = options.rampUpMs ?? 8000;
  const random = randomFrom(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const pick = <T>(items: readonly T[]): T | undefined =>
    items[Math.floor(random() * items.length)];
  // fresh ids from a random block of the id range, so that runs against one table never meet
  let nextId = Math.floor(random() * 2 ** 52) + 1;

  const plants = new Map<number, ModelPlant>();
  const sent: Sent[] = [];
  const statuses = new Map<string, number>();
  const errors = new Map<string, number>();
  let next = 0;
  let done = 0;
  let inFlight = 0;
  const started = performance.now();

  let lastReport = started;
  let lastTenth = 0;
  let lastDone = -1;
  const report = (force = false) => {
    const now = performance.now();
    const tenth = Math.floor((done * 10) / requests);
    if (done === lastDone || (!force && now - lastReport < 1000 && tenth === lastTenth)) return;
    lastReport = now;
    lastTenth = tenth;
    lastDone = done;
    onProgress?.({ done, total: requests, inFlight, elapsedMs: now - started, statuses });
  };
  const ticker = setInterval(() => report(), 1000);

  const call = async (
    caller: Caller,
    method: string,
    path: string,
    template: string,
    { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer | { error: string }> => {
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${caller.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: json(body) }),
      });
      const text = await response.text();
      const status = effectiveStatus(response.status, text);
      const answer = { status, headers: response.headers, body: text };
      if (status === response.status) onResponse?.({ ...answer, method, path: template });
      return answer;
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      const message = cause ?? (error instanceof Error ? error.message : String(error));
      errors.set(message, (errors.get(message) ?? 0) + 1);
      return { error: message };
    }
  };

  /** A live plant no request is working on: of this caller, or of another one. */
  const freePlant = (owner: number, others: boolean) =>
    pick(
      [...plants.values()].filter(
        (p) =>
          !p.busy && !p.uncertain && !p.deleted && (others ? p.owner !== owner : p.owner === owner),
      ),
    );

  const choose = (): Operation => {
    let roll = random();
    for (const [operation, share] of MIX) {
      if (roll < share) return operation;
      roll -= share;
    }
    return 'create';
  };

  const send = async (): Promise<Sent> => {
    const owner = Math.floor(random() * callers.length);
    const caller = callers[owner] as Caller;
    let operation = choose();
    const needsPlant = !['create', 'list', 'listTag'].includes(operation);
    const plant = needsPlant ? freePlant(owner, operation === 'readStranger') : undefined;
    if (needsPlant && !plant) operation = 'create';
    if (plant) plant.busy = true;
    const begun = performance.now();
    const record = (status: number | 'error', expected: number, problem?: string): Sent => ({
      operation,
      status,
      expected,
      latencyMs: performance.now() - begun,
      ...(problem ? { problem } : {}),
    });
    /** The answer, checked for its status; the plant's state is unknown after anything else. */
    const check = (answer: Answer | { error: string }, expected: number, target?: ModelPlant) => {
      if ('error' in answer) {
        if (target) target.uncertain = true;
        return record('error', expected, `${operation}: no answer (${answer.error})`);
      }
      if (answer.status === expected) return undefined;
      if (target && answer.status >= 500) target.uncertain = true;
      return record(
        answer.status,
        expected,
        `${operation}${target ? ` of plant ${target.id}` : ''}: ${answer.status} ${answer.body.slice(0, 160)}, expected ${expected}`,
      );
    };

    try {
      switch (operation) {
        case 'create': {
          const id = nextId++;
          const tag = random() < 0.5 ? pick(TAGS) : undefined;
          const content = { name: `${pick(NAMES)} #${id}`, ...(tag === undefined ? {} : { tag }) };
          const fresh: ModelPlant = {
            id,
            owner,
            version: 1,
            ...content,
            original: content,
            deleted: false,
            busy: true,
            uncertain: false,
          };
          plants.set(id, fresh);
          const answer = await call(caller, 'POST', '/plants', '/plants', {
            body: { id, ...content },
          });
          const wrong = check(answer, 200, fresh);
          fresh.busy = false;
          if (wrong) return wrong;
          if ('error' in answer || answer.body !== json(plantBody(content))) {
            fresh.uncertain = true;
            return record(200, 200, `create of plant ${id} answered ${(answer as Answer).body}`);
          }
          return record(200, 200);
        }
        case 'retry': {
          const target = plant as ModelPlant;
          const unchanged = target.version === 1;
          const expected = unchanged ? 200 : 409;
          const answer = await call(caller, 'POST', '/plants', '/plants', {
            body: { id: target.id, ...target.original },
          });
          return check(answer, expected, target) ?? record(expected, expected);
        }
        case 'conflict': {
          const target = plant as ModelPlant;
          const answer = await call(caller, 'POST', '/plants', '/plants', {
            body: { id: target.id, name: `${target.name} (another)` },
          });
          return check(answer, 409, target) ?? record(409, 409);
        }
        case 'read':
        case 'readStranger': {
          const target = plant as ModelPlant;
          const mine = operation === 'read';
          const answer = await call(caller, 'GET', `/plants/${target.id}`, '/plants/{id}');
          const expected = mine ? 200 : 404;
          const wrong = check(answer, expected, target);
          if (wrong) return wrong;
          const { body, headers } = answer as Answer;
          if (mine) {
            const want = json({ id: target.id, ...plantBody(target) });
            if (body !== want || headers.get('etag') !== `"${target.version}"`) {
              return record(
                200,
                200,
                `read of plant ${target.id}: ${body} ${headers.get('etag')}, expected ${want} "${target.version}"`,
              );
            }
          }
          return record(expected, expected);
        }
        case 'list':
        case 'listTag': {
          // a tag list answers only that tag (while re-tags race with it, its owner is checked)
          const tag = operation === 'listTag' ? pick(TAGS.filter(Boolean)) : undefined;
          const query = tag === undefined ? '' : `&tag=${encodeURIComponent(tag)}`;
          const answer = await call(caller, 'GET', `/plants?limit=50${query}`, '/plants');
          const wrong = check(answer, 200);
          if (wrong) return wrong;
          const page = parse((answer as Answer).body) as { id: number; tag?: string }[];
          // plants of earlier runs are unknown here; a known one must be this caller's
          const foreign = page.filter((p) => {
            const known = plants.get(p.id);
            return known !== undefined && known.owner !== owner;
          });
          const otherTag = page.filter((p) => tag !== undefined && p.tag !== tag);
          if (foreign.length > 0) {
            return record(
              200,
              200,
              `list of ${caller.name} holds plants of others: ${json(foreign)}`,
            );
          }
          return otherTag.length > 0
            ? record(200, 200, `list of tag ${json(tag)} holds other tags: ${json(otherTag)}`)
            : record(200, 200);
        }
        case 'update':
        case 'staleUpdate': {
          const target = plant as ModelPlant;
          const stale = operation === 'staleUpdate';
          const tag = random() < 0.5 ? pick(TAGS) : undefined;
          const content = {
            name: `${pick(NAMES)} v${target.version + 1}`,
            ...(tag === undefined ? {} : { tag }),
          };
          const ifMatch = `"${stale ? target.version + 7 : target.version}"`;
          const answer = await call(caller, 'PUT', `/plants/${target.id}`, '/plants/{id}', {
            body: content,
            headers: { 'if-match': ifMatch },
          });
          const expected = stale ? 412 : 200;
          const wrong = check(answer, expected, target);
          if (wrong) return wrong;
          if (!stale) {
            target.version += 1;
            target.name = content.name;
            if (content.tag === undefined) delete target.tag;
            else target.tag = content.tag;
          }
          return record(expected, expected);
        }
        case 'delete': {
          const target = plant as ModelPlant;
          const answer = await call(caller, 'DELETE', `/plants/${target.id}`, '/plants/{id}');
          const wrong = check(answer, 204, target);
          if (wrong) return wrong;
          target.deleted = true;
          return record(204, 204);
        }
      }
    } finally {
      if (plant) plant.busy = false;
    }
  };

  const worker = async (startAfterMs: number) => {
    if (startAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, startAfterMs));
    while (next < requests) {
      next += 1;
      inFlight += 1;
      const result = await send();
      sent.push(result);
      statuses.set(statusKey(result.status), (statuses.get(statusKey(result.status)) ?? 0) + 1);
      inFlight -= 1;
      done += 1;
      report();
    }
  };
  const workers = Math.min(concurrency, requests);
  // one more in flight every rampUpMs / concurrency, the first at once
  const step = workers > 1 ? rampUpMs / (workers - 1) : 0;
  try {
    await Promise.all(Array.from({ length: workers }, (_, i) => worker(i * step)));
  } finally {
    clearInterval(ticker);
  }
  report(true);
  return { options, sent, plants, durationMs: performance.now() - started, errors };
};

// ---------------------------------------------------------------------------------------------

export interface Verification {
  /** Acknowledged live plants looked for in their owner's list. */
  checked: number;
  /** Acknowledged, not deleted, and not in the owner's list. */
  lost: number;
  /** In the list with other content than its last acknowledged create or update. */
  altered: number;
  /** Deleted (204), and in the list again. */
  resurrected: number;
  /** In a caller's list, but another caller's. */
  foreign: number;
  /** In a list more than once. */
  duplicated: number;
  /** Answers of 500 or more. */
  serverErrors: number;
  /** Answers with another status than the operation's, or a wrong body. */
  unexpected: number;
  /** Requests that got no answer at all. */
  noAnswer: number;
  /** Plants left uncertain by a 5xx or no answer: not checked. */
  uncertain: number;
  /** Examples of what went wrong, at most a few. */
  problems: string[];
}

/** Every plant of a caller (with that tag, when one is given), page by page through the Link headers. */
export const listAll = async (baseUrl: string, caller: Caller, tag?: string) => {
  const listed: { id: number; name: string; tag?: string }[] = [];
  const query = tag === undefined ? '' : `&tag=${encodeURIComponent(tag)}`;
  let url: string | undefined = `${baseUrl}/plants?limit=100${query}`;
  while (url) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${caller.token}` } });
    if (response.status !== 200) {
      throw new Error(
        `listing the plants of ${caller.name} answered ${response.status}: ${await response.text()}`,
      );
    }
    listed.push(...((await response.json()) as typeof listed));
    url = nextPage(response.headers);
  }
  return listed;
};

export const verifyLists = async (run: LoadRun): Promise<Verification> => {
  const problems: string[] = [];
  const note = (problem: string) => {
    if (problems.length < 10) problems.push(problem);
  };
  const v: Verification = {
    checked: 0,
    lost: 0,
    altered: 0,
    resurrected: 0,
    foreign: 0,
    duplicated: 0,
    serverErrors: 0,
    unexpected: 0,
    noAnswer: 0,
    uncertain: 0,
    problems,
  };
  for (const { status, problem } of run.sent) {
    if (status === 'error') v.noAnswer += 1;
    else if (status >= 500) v.serverErrors += 1;
    if (problem) {
      if (status !== 'error') v.unexpected += 1;
      note(problem);
    }
  }

  const { baseUrl, callers } = run.options;
  for (const [owner, caller] of callers.entries()) {
    // the whole list, then each tag's: each must hold exactly the caller's live plants it should
    for (const tag of [undefined, ...TAGS.filter(Boolean)]) {
      const list = tag === undefined ? '' : ` tagged ${json(tag)}`;
      const belongs = (plant: ModelPlant) => tag === undefined || plant.tag === tag;
      const listed = await listAll(baseUrl, caller, tag);
      const seen = new Set<number>();
      for (const item of listed) {
        if (seen.has(item.id)) {
          v.duplicated += 1;
          note(`plant ${item.id} is listed twice for ${caller.name}${list}`);
        }
        seen.add(item.id);
        const known = run.plants.get(item.id);
        if (!known || known.uncertain) continue;
        if (known.owner !== owner) {
          v.foreign += 1;
          note(`${caller.name} sees plant ${item.id} of ${callers[known.owner]?.name}${list}`);
        } else if (known.deleted) {
          v.resurrected += 1;
          note(`plant ${item.id} was deleted (204) and is listed again${list}`);
        } else if (json(item) !== json({ id: known.id, ...plantBody(known) })) {
          // a stale tag list shows a plant under a tag it no longer has
          v.altered += 1;
          note(
            `plant ${item.id} is listed${list} as ${json(item)}, its last acknowledged state is ${json(plantBody(known))}`,
          );
        }
      }
      for (const plant of run.plants.values()) {
        if (plant.owner !== owner) continue;
        if (plant.uncertain) {
          if (tag === undefined) v.uncertain += 1;
          continue;
        }
        if (plant.deleted || !belongs(plant)) continue;
        if (tag === undefined) v.checked += 1;
        if (!seen.has(plant.id)) {
          v.lost += 1;
          note(`plant ${plant.id} of ${caller.name} was acknowledged and is not listed${list}`);
        }
      }
    }
  }
  return v;
};

// ---------------------------------------------------------------------------------------------

export interface LoadReport {
  run: LoadRun;
  verification: Verification;
  ok: boolean;
}

export const isClean = (v: Verification) =>
  v.lost +
    v.altered +
    v.resurrected +
    v.foreign +
    v.duplicated +
    v.serverErrors +
    v.unexpected +
    v.noAnswer ===
  0;

export const runLoadTest = async (options: LoadOptions): Promise<LoadReport> => {
  const run = await runLoad(options);
  const verification = await verifyLists(run);
  return { run, verification, ok: isClean(verification) };
};

/** The nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export const formatProgress = ({ done, total, inFlight, elapsedMs, statuses }: Progress) => {
  const rate = elapsedMs > 0 ? Math.round((done / elapsedMs) * 1000) : 0;
  const byStatus = [...statuses].sort().map(([status, n]) => `${status}: ${n}`);
  const percent = Math.floor((done / total) * 100);
  return `loadtest: ${done}/${total} (${percent}%), ${inFlight} in flight, ${rate} requests/s${byStatus.length ? `, ${byStatus.join(', ')}` : ''}`;
};

export const formatSummary = ({ run, verification: v, ok }: LoadReport) => {
  const latencies = run.sent.map((s) => s.latencyMs).sort((a, b) => a - b);
  const count = (key: (s: Sent) => string) => {
    const counts = new Map<string, number>();
    for (const s of run.sent) counts.set(key(s), (counts.get(key(s)) ?? 0) + 1);
    return [...counts]
      .sort()
      .map(([name, n]) => `${name}: ${n}`)
      .join(', ');
  };
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const live = [...run.plants.values()].filter((p) => !p.deleted && !p.uncertain).length;
  const lines = [
    `Load test: ${run.sent.length} requests to ${run.options.baseUrl} from ${run.options.callers.length} callers, ${run.options.concurrency} in flight (reached over ${((run.options.rampUpMs ?? 8000) / 1000).toFixed(1)} s)`,
    `  sent         ${count((s) => s.operation)}`,
    `  duration     ${(run.durationMs / 1000).toFixed(1)} s`,
    `  throughput   ${((run.sent.length / run.durationMs) * 1000).toFixed(0)} requests/s`,
    `  latency      p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1) ?? 0)}`,
    `  statuses     ${count((s) => String(s.status))}`,
    `  lists        ${v.checked} acknowledged plants looked for (${live} live): ${v.lost} lost, ${v.altered} altered, ${v.resurrected} resurrected, ${v.foreign} of another caller, ${v.duplicated} listed twice`,
    `  5xx          ${v.serverErrors}`,
    `  unexpected   ${v.unexpected} answers other than the operation's; ${v.noAnswer} without an answer; ${v.uncertain} plants left unknown by them`,
    ...[...run.errors].map(([message, n]) => `  no answer    ${n} × ${message}`),
    ...v.problems.map((problem) => `  problem      ${problem}`),
    `  result       ${ok ? 'OK: nothing lost, altered, resurrected or shown to another caller, no 5xx' : 'FAILED'}`,
  ];
  return lines.join('\n');
};
