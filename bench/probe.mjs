// One handler instance in a fresh Node process, as Lambda runs it: imports the built bundle (a
// real .mjs, so load-time crashes show) and invokes it. Prints one JSON line of figures.
//   node bench/probe.mjs <bundle.mjs> cold|warm <invocations> stub|'' <token>
// With "stub", DynamoDB is an in-process HTTP stub that answers every PutItem with success, so
// only the handler's own work (and the SDK's) is measured. With BENCH_TOKENS_FILE (one token a
// line) each invocation presents the next token, as new callers do; without it, one caller sends
// them all with <token>.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bundle, mode, count, store, token] = process.argv.slice(2);
const invocations = Number(count);

if (store === 'stub') {
  // imported here only: a static import of node:http would load it before the handler does
  const { createServer } = await import('node:http');
  const stub = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
    });
  });
  await new Promise((resolve) => stub.listen(0, '127.0.0.1', resolve));
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${stub.address().port}`;
  stub.unref();
}

let nextId = Number(process.env.BENCH_FIRST_ID ?? 1);
const tokens = process.env.BENCH_TOKENS_FILE
  ? readFileSync(process.env.BENCH_TOKENS_FILE, 'utf8').trim().split('\n')
  : [token];
let nextToken = 0;
const event = () => ({
  version: '2.0',
  routeKey: 'POST /plants',
  rawPath: '/plants',
  rawQueryString: '',
  headers: {
    authorization: `Bearer ${tokens[nextToken++ % tokens.length]}`,
    'content-type': 'application/json',
  },
  requestContext: { http: { method: 'POST', path: '/plants' }, requestId: 'bench' },
  body: JSON.stringify({ id: nextId++, name: 'Monstera', tag: 'indoor' }),
  isBase64Encoded: false,
});
const context = () => ({
  awsRequestId: 'bench',
  functionName: 'bench',
  getRemainingTimeInMillis: () => 10_000,
});
const invoke = async (handler) => {
  const response = await handler(event(), context());
  if (response.statusCode !== 200)
    throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`);
};

// the figures go to a file: the handler's own log lines share stdout
const report = (figures) => writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(figures));

const beforeImport = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
const imported = performance.now();

if (mode === 'cold') {
  await invoke(handler);
  const answered = performance.now();
  report({
    importMs: imported - beforeImport,
    firstResponseMs: answered - beforeImport,
    sinceProcessStartMs: answered,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  });
} else {
  for (let i = 0; i < 50; i++) await invoke(handler);
  const latencies = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < invocations; i++) {
    const t0 = performance.now();
    await invoke(handler);
    latencies.push(performance.now() - t0);
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  report({
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    perSecond: (invocations / elapsed) * 1000,
    cpuMsPerInvocation: (cpu.user + cpu.system) / 1000 / invocations,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  });
}
