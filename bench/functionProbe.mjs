// One function's handler in a fresh Node process, as Lambda runs it: imports the built bundle (a
// real .mjs) and invokes it with the events of its kind. Its dependencies are stubs in this
// process (DynamoDB answering every command with success; a webhook receiver answering 200), so
// only the handler's own work (and the SDK's) is measured. Prints nothing: the figures go to
// BENCH_RESULT_FILE.
//   node bench/functionProbe.mjs <bundle.mjs> cold|warm <invocations> <kind>
// kind: create, list, get, update, delete, deliver. BENCH_TOKENS_FILE: one token a line, the next
// for each invocation.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const [bundle, mode, count, kind] = process.argv.slice(2);
const invocations = Number(count);

const item = (id) => ({
  id: { N: String(id) },
  name: { S: 'Monstera' },
  tag: { S: 'indoor' },
  createdAt: { S: '2026-11-22T10:00:00.000Z' },
  createdBy: { S: 'bench' },
  version: { N: '1' },
});
/** DynamoDB's answer to each command, by its X-Amz-Target. */
const answers = {
  PutItem: {},
  GetItem: { Item: item(7) },
  Query: { Items: Array.from({ length: 21 }, (_, i) => item(i + 1)), Count: 21 },
  UpdateItem: { Attributes: { ...item(7), version: { N: '2' } } },
  DeleteItem: {},
};
const listen = (handle) =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => handle(request, response));
    });
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(`http://127.0.0.1:${server.address().port}`);
    });
  });
process.env.DYNAMODB_ENDPOINT = await listen((request, response) => {
  const command = String(request.headers['x-amz-target'] ?? '').split('.')[1];
  response
    .writeHead(200, { 'content-type': 'application/x-amz-json-1.0' })
    .end(JSON.stringify(answers[command] ?? {}));
});
process.env.WEBHOOK_URL = `${await listen((_request, response) => response.writeHead(200).end())}/hooks`;

const tokens = readFileSync(process.env.BENCH_TOKENS_FILE, 'utf8').trim().split('\n');
let next = 0;
const http = (method, path, extra = {}) => ({
  version: '2.0',
  routeKey: `${method} ${path.replace(/\/\d+$/, '/{id}')}`,
  rawPath: path,
  rawQueryString: '',
  headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}`, host: 'bench' },
  requestContext: { http: { method, path }, requestId: 'bench' },
  isBase64Encoded: false,
  ...extra,
});
const json = (body) => ({ body: JSON.stringify(body) });
const events = {
  create: () => {
    const event = http('POST', '/plants', json({ id: next, name: 'Monstera', tag: 'indoor' }));
    event.headers['content-type'] = 'application/json';
    return event;
  },
  list: () =>
    http('GET', '/plants', { rawQueryString: 'limit=20', queryStringParameters: { limit: '20' } }),
  get: () => http('GET', '/plants/7', { pathParameters: { id: '7' } }),
  update: () => {
    const event = http('PUT', '/plants/7', {
      pathParameters: { id: '7' },
      ...json({ name: 'Monstera deliciosa' }),
    });
    event.headers['content-type'] = 'application/json';
    return event;
  },
  delete: () => http('DELETE', '/plants/7', { pathParameters: { id: '7' } }),
  deliver: () => ({
    Records: [
      {
        eventID: String(next),
        eventName: 'INSERT',
        dynamodb: { SequenceNumber: String(next++), NewImage: item(next) },
      },
    ],
  }),
};
const expected = { create: 200, list: 200, get: 200, update: 200, delete: 204 };
const context = () => ({
  awsRequestId: 'bench',
  functionName: 'bench',
  getRemainingTimeInMillis: () => 60_000,
});
const invoke = async (handler) => {
  const response = await handler(events[kind](), context());
  const ok =
    kind === 'deliver'
      ? response?.batchItemFailures?.length === 0
      : response?.statusCode === expected[kind];
  if (!ok) throw new Error(`${kind}: unexpected answer ${JSON.stringify(response)}`);
};

const report = (figures) => writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(figures));

const beforeImport = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
if (mode === 'cold') {
  await invoke(handler);
  report({ firstResponseMs: performance.now() - beforeImport });
} else {
  for (let i = 0; i < 50; i++) await invoke(handler);
  const latencies = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < invocations; i++) {
    const t0 = performance.now();
    await invoke(handler);
    latencies.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  report({
    p50Ms: latencies[Math.floor(latencies.length / 2)],
    cpuMsPerInvocation: (cpu.user + cpu.system) / 1000 / invocations,
  });
}
// the handler's keep-alive connections to the stubs would hold the process open for seconds
process.exit(0);
