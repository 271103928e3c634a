import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { localDynamoClient } from '../../infra/local/dynamoClient.ts';

/** The table `npm start` serves (infra/local/start.ts). */
export const LOCAL_TABLE = 'plant-store-local-plants';

export type RequestKind = 'fresh' | 'retry' | 'conflict';

interface Plant {
  id: number;
  name: string;
  tag?: string;
}

export interface LoadOptions {
  /** The service, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  token: string;
  requests: number;
  concurrency: number;
  /** Shares of identical retries and of conflicting duplicates (each 0.1 unless given). */
  retryShare?: number;
  conflictShare?: number;
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
  onResponse?: (response: { status: number; headers: Headers; body: string }) => void;
}

export interface Progress {
  done: number;
  total: number;
  inFlight: number;
  elapsedMs: number;
  statuses: ReadonlyMap<string, number>;
}

interface Sent {
  kind: RequestKind;
  plant: Plant;
  /** The HTTP status (see effectiveStatus), or `error` when no answer came. */
  status: number | 'error';
  /** Whether the answer was exactly the Plant that was sent. */
  plantAnswered: boolean;
  /** What the answer's body said. */
  answered?: unknown;
  /** When it was sent, from the start of the run. */
  sentAtMs: number;
  latencyMs: number;
}

export interface LoadRun {
  options: LoadOptions;
  sent: Sent[];
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
const effectiveStatus = (status: number, body: unknown) =>
  status === 200 &&
  typeof body === 'object' &&
  body !== null &&
  (body as { errorType?: unknown }).errorType === 'LambdaTimeoutError'
    ? 504
    : status;

const isPlantOf = (body: unknown, plant: Plant) =>
  JSON.stringify(body) ===
  JSON.stringify(
    plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag },
  );

export const runLoad = async (options: LoadOptions): Promise<LoadRun> => {
  const { baseUrl, token, requests, concurrency, onProgress, onResponse } = options;
  const rampUpMs = options.rampUpMs ?? 8000;
  const retryShare = options.retryShare ?? 0.1;
  const conflictShare = options.conflictShare ?? 0.1;
  const random = randomFrom(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  // fresh ids from a random block of the id range, so that runs against one table never meet
  const firstId = Math.floor(random() * 2 ** 52) + 1;

  const sent: Sent[] = [];
  /** Fresh plants answered 200: what retries and conflicting duplicates are made of. */
  const accepted: Plant[] = [];
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

  const nextRequest = (index: number): { kind: RequestKind; plant: Plant } => {
    const roll = random();
    const original = accepted.length > 0 ? pick(accepted) : undefined;
    if (original && roll < retryShare) return { kind: 'retry', plant: original };
    if (original && roll < retryShare + conflictShare) {
      const plant =
        random() < 0.5
          ? { ...original, name: `${original.name} (another)` }
          : { ...original, tag: `${original.tag ?? ''}other` };
      return { kind: 'conflict', plant };
    }
    const id = firstId + index;
    const tag = random() < 0.5 ? pick(TAGS) : undefined;
    const name = `${pick(NAMES)} #${id}`;
    return { kind: 'fresh', plant: tag === undefined ? { id, name } : { id, name, tag } };
  };

  const send = async (index: number) => {
    const { kind, plant } = nextRequest(index);
    const begun = performance.now();
    let record: Sent;
    try {
      const response = await fetch(`${baseUrl}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(plant),
      });
      const body = await response.text();
      const latencyMs = performance.now() - begun;
      let answered: unknown = body;
      try {
        answered = JSON.parse(body);
      } catch {}
      const status = effectiveStatus(response.status, answered);
      if (status === response.status) {
        onResponse?.({ status: response.status, headers: response.headers, body });
      }
      const plantAnswered = status === 200 && isPlantOf(answered, plant);
      record = {
        kind,
        plant,
        status,
        plantAnswered,
        answered,
        sentAtMs: begun - started,
        latencyMs,
      };
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      const message = cause ?? (error instanceof Error ? error.message : String(error));
      errors.set(message, (errors.get(message) ?? 0) + 1);
      const latencyMs = performance.now() - begun;
      record = {
        kind,
        plant,
        status: 'error',
        plantAnswered: false,
        sentAtMs: begun - started,
        latencyMs,
      };
    }
    sent.push(record);
    if (kind === 'fresh' && record.plantAnswered) accepted.push(plant);
    statuses.set(statusKey(record.status), (statuses.get(statusKey(record.status)) ?? 0) + 1);
    inFlight -= 1;
    done += 1;
    report();
  };

  const worker = async (startAfterMs: number) => {
    if (startAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, startAfterMs));
    while (next < requests) {
      const index = next;
      next += 1;
      inFlight += 1;
      await send(index);
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
  return { options, sent, durationMs: performance.now() - started, errors };
};

// ---------------------------------------------------------------------------------------------

export interface Verification {
  /** Plants answered 200 (fresh or retried), each checked in the table. */
  checked: number;
  /** Answered 200, but not in the table. */
  lost: number;
  /** Answered 200, but stored with another name, tag or creator, or with more than was sent. */
  altered: number;
  /** Conflicting duplicates whose content is what the table holds: they overwrote a plant. */
  overwritten: number;
  /** Answers of 500 or more. */
  serverErrors: number;
  /** Answers other than a fresh plant's or a retry's 200 and a conflict's 409 (5xx included). */
  unexpected: number;
  /** Requests that got no answer at all. */
  noAnswer: number;
  /** Examples of what went wrong, at most a few of each. */
  problems: string[];
}

const subjectOf = (token: string): string | undefined => {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    return typeof payload.sub === 'string' ? payload.sub : undefined;
  } catch {
    return undefined;
  }
};

const STORED_KEYS = new Set(['id', 'name', 'tag', 'createdAt', 'createdBy', 'version']);
const sameContent = (a: { name?: unknown; tag?: unknown }, b: Plant) =>
  a.name === b.name && a.tag === b.tag;

/** Every item of the table, read back with a consistent scan. */
export const scanTable = async (dynamodbEndpoint: string, table = LOCAL_TABLE) => {
  const client = DynamoDBDocumentClient.from(localDynamoClient(dynamodbEndpoint));
  try {
    const items = new Map<number, Record<string, unknown>>();
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }),
      );
      for (const item of page.Items ?? []) items.set(Number(item.id), item);
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  } finally {
    client.destroy();
  }
};

export const verifyTable = async (
  run: LoadRun,
  { dynamodbEndpoint, table = LOCAL_TABLE }: { dynamodbEndpoint: string; table?: string },
): Promise<Verification> => {
  const stored = await scanTable(dynamodbEndpoint, table);
  const creator = subjectOf(run.options.token);
  const problems: string[] = [];
  const note = (problem: string) => {
    if (problems.length < 10) problems.push(problem);
  };
  const verification: Verification = {
    checked: 0,
    lost: 0,
    altered: 0,
    overwritten: 0,
    serverErrors: 0,
    unexpected: 0,
    noAnswer: 0,
    problems,
  };

  /** The first plant each id was answered 200 with, the Plant as sent. */
  const answered200 = new Map<number, Plant>();
  for (const { kind, plant, status, plantAnswered, answered, sentAtMs, latencyMs } of run.sent) {
    if (status === 'error') verification.noAnswer += 1;
    else if (status >= 500) verification.serverErrors += 1;
    const expected = kind === 'conflict' ? 409 : 200;
    if (status !== expected || (status === 200 && !plantAnswered)) {
      verification.unexpected += 1;
      const when = `sent at ${(sentAtMs / 1000).toFixed(1)} s, answered after ${latencyMs.toFixed(0)} ms`;
      const said = JSON.stringify(answered)?.slice(0, 160);
      note(`${kind} of plant ${plant.id}: ${status} ${said}, expected ${expected} (${when})`);
    }
    if (plantAnswered && !answered200.has(plant.id)) answered200.set(plant.id, plant);
  }

  for (const [id, plant] of answered200) {
    verification.checked += 1;
    const item = stored.get(id);
    if (!item) {
      verification.lost += 1;
      note(`plant ${id} was answered 200 but is not in the table`);
      continue;
    }
    const extra = Object.keys(item).filter((key) => !STORED_KEYS.has(key));
    const wrongCreator = creator !== undefined && item.createdBy !== creator;
    if (!sameContent(item, plant) || extra.length > 0 || wrongCreator) {
      verification.altered += 1;
      note(
        `plant ${id} was sent as ${JSON.stringify(plant)}, the table holds ${JSON.stringify(item)}`,
      );
    }
  }

  for (const { kind, plant } of run.sent) {
    const item = stored.get(plant.id);
    if (kind === 'conflict' && item && sameContent(item, plant)) {
      verification.overwritten += 1;
      note(`the conflicting duplicate ${JSON.stringify(plant)} is what the table holds`);
    }
  }
  return verification;
};

// ---------------------------------------------------------------------------------------------

export interface LoadReport {
  run: LoadRun;
  verification: Verification;
  ok: boolean;
}

export const isClean = (v: Verification) =>
  v.lost + v.altered + v.overwritten + v.serverErrors + v.unexpected + v.noAnswer === 0;

export const runLoadTest = async (
  options: LoadOptions & { dynamodbEndpoint: string; table?: string },
): Promise<LoadReport> => {
  const run = await runLoad(options);
  const verification = await verifyTable(run, options);
  return { run, verification, ok: isClean(verification) };
};

/** The nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const count = (run: LoadRun, kind: RequestKind) => run.sent.filter((s) => s.kind === kind).length;

export const formatProgress = ({ done, total, inFlight, elapsedMs, statuses }: Progress) => {
  const rate = elapsedMs > 0 ? Math.round((done / elapsedMs) * 1000) : 0;
  const byStatus = [...statuses].sort().map(([status, n]) => `${status}: ${n}`);
  const percent = Math.floor((done / total) * 100);
  return `loadtest: ${done}/${total} (${percent}%), ${inFlight} in flight, ${rate} requests/s${byStatus.length ? `, ${byStatus.join(', ')}` : ''}`;
};

export const formatSummary = ({ run, verification: v, ok }: LoadReport) => {
  const latencies = run.sent.map((s) => s.latencyMs).sort((a, b) => a - b);
  const statuses = new Map<string, number>();
  for (const { status } of run.sent) {
    statuses.set(statusKey(status), (statuses.get(statusKey(status)) ?? 0) + 1);
  }
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const lines = [
    `Load test: ${run.sent.length} requests to ${run.options.baseUrl}/plants, ${run.options.concurrency} in flight (reached over ${((run.options.rampUpMs ?? 8000) / 1000).toFixed(1)} s)`,
    `  sent         ${count(run, 'fresh')} fresh ids, ${count(run, 'retry')} identical retries, ${count(run, 'conflict')} conflicting duplicates`,
    `  duration     ${(run.durationMs / 1000).toFixed(1)} s`,
    `  throughput   ${((run.sent.length / run.durationMs) * 1000).toFixed(0)} requests/s`,
    `  latency      p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1) ?? 0)}`,
    `  statuses     ${[...statuses]
      .sort()
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ')}`,
    `  table        ${v.checked} plants answered 200 read back: ${v.lost} lost, ${v.altered} altered, ${v.overwritten} overwritten by a conflicting duplicate`,
    `  5xx          ${v.serverErrors}`,
    `  unexpected   ${v.unexpected} answers other than 200 (fresh, retry) and 409 (conflict); ${v.noAnswer} without an answer`,
    ...[...run.errors].map(([message, n]) => `  no answer    ${n} × ${message}`),
    ...v.problems.map((problem) => `  problem      ${problem}`),
    `  result       ${ok ? 'OK: nothing lost, altered or overwritten, no 5xx' : 'FAILED'}`,
  ];
  return lines.join('\n');
};
