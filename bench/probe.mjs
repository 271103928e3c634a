// One function's bundle (a real .mjs, so load-time crashes show) in a fresh Node process, as Lambda
// runs it, invoked with the events of its kind; its figures written as JSON to BENCH_RESULT_FILE.
//   cold <kind> <bundle>: a fresh process's first response; warm <kind> <n> <bundle>...: all loaded,
//   invoked in turn, n each; memory <kind> <n> <bundle>: peak RSS; stubs: the stubs alone, until
//   stdin closes. kind: a function (bench/functions.ts), or `<function>:large`, the large plant.
// BENCH_DEPENDENCIES "stubs" (default): DynamoDB, SQS, S3 and the receiver stubbed in this process
// (only the handler's and the SDK's work timed); "given": DYNAMODB_ENDPOINT, AWS_ENDPOINT_URL_SQS,
// AWS_ENDPOINT_URL_S3 and WEBHOOK_URL (a `stubs` process's, or DynamoDB Local). BENCH_TOKENS_FILE:
// a token a line, a function's nth invocation the nth (BENCH_REPEAT_CALLER=1: the first, always).
// BENCH_FIRST_ID: the first bundle's first plant id or endpoint; the next's: BENCH_SECOND_FIRST_ID.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { retryQueueEvent, streamInsertEvent } from '../infra/events/webhooks.mjs';
import { CALLER, endpointId, LARGE_NAME, plantItem, requests } from './requests.mjs';

const [mode, kind = '', ...rest] = process.argv.slice(2);
const [functionName, size] = kind.split(':');
/** The name of the plant the webhooks' events carry. */
const plantName = size === 'large' ? LARGE_NAME : 'Monstera';
const env = process.env;
/** The route list (lib/routes/routeList.ts), as the bench passes it. */
const ROUTES = JSON.parse(env.BENCH_ROUTES ?? '{}');
/** The webhooks table's items the stub answers with, keyed by the bench (BENCH_STUB_ITEMS). */
const { endpoints, attempts, event } = JSON.parse(env.BENCH_STUB_ITEMS);
const endpointItem = (n, receiver) => ({ ...endpoints[n - 1], url: { S: receiver } });

/**
 * The stub DynamoDB's answer to each command, by its X-Amz-Target: on the webhooks table
 * (WEBHOOKS_TABLE) the caller's endpoints, each pointing at `receiver`, on any other the plants; {}
 * to the others (PutItem, DeleteItem, TransactWriteItems).
 */
const answersFor = (receiver) => ({
  plants: {
    GetItem: { Item: plantItem(7) },
    Query: { Items: Array.from({ length: 21 }, (_, i) => plantItem(i + 1)), Count: 21 },
    UpdateItem: { Attributes: { ...plantItem(7), version: { N: '2' } } },
  },
  webhooks: {
    GetItem: { Item: endpointItem(7, receiver) },
    Query: {
      Items: endpoints.map((_, i) => endpointItem(i + 1, receiver)),
      Count: endpoints.length,
    },
    UpdateItem: { Attributes: endpointItem(7, receiver) },
  },
});
const STREAM_ARN =
  'arn:aws:dynamodb:us-east-1:000000000000:table/plants-bench/stream/2026-11-22T10:00:00';
/** The stub stream's record: plant 7's insert, as Lambda hands it to a function. */
const streamRecord = {
  eventID: 'bench',
  eventName: 'INSERT',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'us-east-1',
  dynamodb: {
    ApproximateCreationDateTime: 1_795_860_000,
    Keys: { id: plantItem(7).id },
    NewImage: plantItem(7),
    SequenceNumber: '100',
    SizeBytes: 120,
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  },
  eventSourceARN: STREAM_ARN,
};
/** What Lambda writes to the stream-failure bucket of a batch given up: each object, stubbed. */
const INVOCATION_RECORD = JSON.stringify({
  requestContext: {
    functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:queueEndpointEvents',
    condition: 'RetryAttemptsExhausted',
  },
  timestamp: '2026-11-22T10:00:00.000Z',
  DDBStreamBatchInfo: {
    shardId: 'shardId-bench',
    startSequenceNumber: '100',
    endSequenceNumber: '100',
    batchSize: 1,
    streamArn: STREAM_ARN,
  },
  payload: JSON.stringify({ Records: [streamRecord] }),
});
/** An endpoint's attempts and sent events: the items of its deliveries partition. */
const deliveries = {
  GetItem: { Item: event },
  Query: {
    Items: attempts,
    Count: attempts.length,
    LastEvaluatedKey: { pk: attempts.at(-1).pk, sk: attempts.at(-1).sk },
  },
};
const answerTo = (answers, command, { TableName, Key, ExpressionAttributeValues }) => {
  if (TableName !== env.WEBHOOKS_TABLE) return answers.plants[command] ?? {};
  const partition = Key?.pk?.S ?? ExpressionAttributeValues?.[':pk']?.S ?? '';
  return (partition.startsWith('endpoint#') ? deliveries : answers.webhooks)[command] ?? {};
};
/** DynamoDB, SQS, S3 and a webhook receiver, all answering success at once: their URLs. */
const startStubs = async () => {
  // imported only here: a cold start must load node:http and node:crypto itself, as the handler
  // does in Lambda
  const { createServer } = await import('node:http');
  const { createHash } = await import('node:crypto');
  const listen = (handle) =>
    new Promise((resolve) => {
      const server = createServer(handle);
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        resolve(`http://127.0.0.1:${server.address().port}`);
      });
    });
  const webhook = await listen((request, response) =>
    request.resume().on('end', () => response.writeHead(204).end()),
  );
  const receiver = `${webhook}/hooks`;
  const answers = answersFor(receiver);
  /** SQS's answer to a message: kept, with the digest of its body, which the SDK checks. */
  const sent = ({ MessageBody }) => ({
    MessageId: 'bench',
    MD5OfMessageBody: createHash('md5').update(MessageBody).digest('hex'),
  });
  const sqsAnswers = {
    SendMessage: sent,
    SendMessageBatch: ({ Entries }) => ({
      Successful: Entries.map((entry) => ({ Id: entry.Id, ...sent(entry) })),
      Failed: [],
    }),
  };
  const dynamodb = await listen((request, response) => {
    // S3's GetObject (path-style, the endpoint an address): the invocation record, whatever the key
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(INVOCATION_RECORD);
      return;
    }
    const command = String(request.headers['x-amz-target'] ?? '').split('.')[1];
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const input = JSON.parse(Buffer.concat(chunks).toString());
      response
        .writeHead(200, { 'content-type': 'application/x-amz-json-1.0' })
        .end(JSON.stringify(sqsAnswers[command]?.(input) ?? answerTo(answers, command, input)));
    });
  });
  return {
    DYNAMODB_ENDPOINT: dynamodb,
    WEBHOOK_URL: receiver,
    // SQS's JSON protocol, answered by the same stub
    AWS_ENDPOINT_URL_SQS: dynamodb,
    AWS_ENDPOINT_URL_S3: dynamodb,
    ENDPOINT_DELIVERY_QUEUE_URL: `${dynamodb}/000000000000/endpoint-deliveries`,
    ENDPOINT_SLOW_DELIVERY_QUEUE_URL: `${dynamodb}/000000000000/endpoint-deliveries-slow`,
    STREAM_DEAD_LETTER_QUEUE_URL: `${dynamodb}/000000000000/stream-dead-letters`,
  };
};

if (mode === 'stubs') {
  process.stdout.write(`${JSON.stringify(await startStubs())}\n`);
  // serves until the bench closes stdin; nothing below runs
  process.stdin.on('end', () => process.exit(0)).resume();
  await new Promise(() => {});
} else if ((env.BENCH_DEPENDENCIES ?? 'stubs') === 'stubs') {
  Object.assign(env, await startStubs());
}

const tokens = readFileSync(env.BENCH_TOKENS_FILE, 'utf8').trim().split('\n');
/** A function's `n`th token: each counts through them alone, so none meets its cache twice. */
const authorizationOf = (n) => {
  const token = tokens[env.BENCH_REPEAT_CALLER === '1' ? 0 : n];
  if (token) return `Bearer ${token}`;
  throw new Error(`bench/probe.mjs: ${kind}'s call ${n + 1}, ${tokens.length} tokens: mint more`);
};
/** An HTTP API (payload 2.0) event of the route, as API Gateway sends it. */
const httpEvent = (route, { path = {}, query = '', body }, n) => {
  const { method, path: template } = ROUTES[route];
  const rawPath = template.replace(/\{(\w+)\}/g, (_, name) => path[name]);
  return {
    version: '2.0',
    routeKey: `${method} ${template}`,
    rawPath,
    rawQueryString: query,
    ...(query ? { queryStringParameters: Object.fromEntries(new URLSearchParams(query)) } : {}),
    headers: {
      authorization: authorizationOf(n),
      host: 'bench',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    requestContext: { http: { method, path: rawPath }, requestId: 'bench' },
    ...(Object.keys(path).length > 0 ? { pathParameters: path } : {}),
    ...(body ? { body: JSON.stringify(body) } : {}),
    isBase64Encoded: false,
  };
};
const insertEvent = (id) => streamInsertEvent(String(id), plantItem(id, plantName));
/** The batches of the functions with no caller, by kind: a stream's or a queue's, of one record. */
const batchEvents = {
  deliverPlantAdded: insertEvent,
  // an event of the retry queue, due now
  retryPlantAdded: (id) =>
    retryQueueEvent(String(id), {
      webhookId: `msg_bench${id}`,
      plantId: id,
      body: JSON.stringify({ id, name: 'Monstera', tag: 'indoor' }),
      attempts: 1,
      lastError: 'answered 503',
      dueAt: Date.now(),
    }),
  queueEndpointEvents: insertEvent,
  // the first attempt, due now, of plant `id`'s plant.added to the caller's endpoint 7
  deliverToEndpoint: (id) =>
    retryQueueEvent(String(id), {
      owner: CALLER,
      endpointId: endpointId(7),
      webhookId: `msg_bench${id}`,
      type: 'plant.added',
      body: JSON.stringify({
        type: 'plant.added',
        timestamp: new Date().toISOString(),
        data: { id, name: plantName, tag: 'indoor' },
      }),
      attempts: 0,
      dueAt: Date.now(),
    }),
  // S3's notification of a batch given up, which Lambda wrote to the stream-failure bucket
  keepFailedStreamRecords: (id) =>
    retryQueueEvent(String(id), {
      Records: [
        {
          s3: {
            bucket: { name: 'stream-failures-bench' },
            object: { key: `aws/lambda/bench/shardId-bench/2026/11/22/2026-11-22T10.00.00-${id}` },
          },
        },
      ],
    }),
};
const eventOf = (id, n) => {
  if (batchEvents[functionName]) return batchEvents[functionName](id);
  const request = requests[kind];
  if (!ROUTES[kind] || !request) throw new Error(`bench/probe.mjs: no request for ${kind}`);
  return httpEvent(kind, request(id), n);
};
const context = {
  awsRequestId: 'bench',
  functionName: 'bench',
  getRemainingTimeInMillis: () => 6e4,
};
/** Bytes written to stdout and stderr: what CloudWatch Logs would ingest of the function's own. */
let written = 0;
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = (chunk, ...more) => {
    written += Buffer.byteLength(chunk);
    return write(chunk, ...more);
  };
}
/** A function under test: its handler, next plant id, invocations, bytes logged and answered. */
const load = async (bundle, nextId) => {
  const { handler } = await import(pathToFileURL(bundle).href);
  return { handler, nextId, invocations: 0, logBytes: 0, responseBytes: 0 };
};
// Lambda's trace header, unsampled (5% past a function's first a second are), unique in the process
// by the invocation's plant or endpoint number: ours reads it for xray_trace_id (lib/telemetry.ts)
const traceHeader = (id) => {
  const n = id.toString(16).padStart(24, '0');
  return `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${n};Parent=${n.slice(8)};Sampled=0`;
};
const invoke = async (subject) => {
  const writtenBefore = written;
  process.env._X_AMZN_TRACE_ID = traceHeader(subject.nextId);
  // a context of its own, as Lambda hands each invocation
  const event = eventOf(subject.nextId++, subject.invocations++);
  const response = await subject.handler(event, { ...context });
  subject.logBytes += written - writtenBefore;
  const ok = batchEvents[functionName]
    ? response?.batchItemFailures?.length === 0
    : response?.statusCode >= 200 && response?.statusCode < 300;
  if (!ok) throw new Error(`${kind}: unexpected answer ${JSON.stringify(response)}`);
  return response;
};
const report = (figures) => writeFileSync(env.BENCH_RESULT_FILE, JSON.stringify(figures));
const firstId = Number(env.BENCH_FIRST_ID ?? 1);
const WARM_UP = Number(env.BENCH_WARM_UP);

if (mode === 'cold') {
  const beforeImport = performance.now();
  const subject = await load(rest[0], firstId);
  const importMs = performance.now() - beforeImport;
  await invoke(subject);
  report({ importMs, firstResponseMs: performance.now() - beforeImport });
} else if (mode === 'warm') {
  // all in one process, invoked in turn: whatever slows the machine slows them alike
  const n = Number(rest[0]);
  const stride = Number(env.BENCH_SECOND_FIRST_ID) - firstId;
  const subjects = [];
  for (const [i, bundle] of rest.slice(1).entries())
    subjects.push(await load(bundle, firstId + i * stride));
  const latencies = subjects.map(() => []);
  for (let i = 0; i < WARM_UP + n; i++) {
    // each takes each place in turn
    for (let k = 0; k < subjects.length; k++) {
      const s = (i + k) % subjects.length;
      const started = performance.now();
      const response = await invoke(subjects[s]);
      if (i >= WARM_UP) latencies[s].push(performance.now() - started);
      // a route's answer, body and headers, counted once its time is taken
      if (!batchEvents[functionName])
        subjects[s].responseBytes +=
          Buffer.byteLength(response.body ?? '') + JSON.stringify(response.headers ?? {}).length;
    }
  }
  const sorted = latencies.map((values) => values.sort((a, b) => a - b));
  const invocations = WARM_UP + n;
  report({
    p50Ms: sorted.map((values) => values[Math.floor(values.length / 2)]),
    p99Ms: sorted.map((values) => values[Math.floor((values.length - 1) * 0.99)]),
    meanMs: latencies.map((values) => values.reduce((a, b) => a + b, 0) / values.length),
    // per invocation, the warm-up's included
    logBytes: subjects.map(({ logBytes }) => logBytes / invocations),
    responseBytes: subjects.map(({ responseBytes }) => responseBytes / invocations),
  });
} else if (mode === 'memory') {
  const n = Number(rest[0]);
  const subject = await load(rest[1], firstId);
  for (let i = 0; i < WARM_UP + n; i++) await invoke(subject);
  report({ peakRssMb: process.resourceUsage().maxRSS / 1024 });
} else {
  throw new Error(`unknown mode ${mode}: cold, warm, memory or stubs`);
}
// the handlers' keep-alive connections would hold the process open for seconds
process.exit(0);
