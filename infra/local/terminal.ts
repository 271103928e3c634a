// What `npm start` shows of serverless-offline's output: a line per request and webhook attempt from
// the JSON log lines (`--json`: those as deployed); its banner and EMF left out, any other line as is.

/** serverless-offline's own lines, which tell a user nothing the ready line does not. */
const NOISE = [
  /^\s*$/,
  /^[┌│└]/,
  /^(Starting Offline at stage|Offline \[http for lambda\] listening|Server ready: )/,
  /^(Function names exposed for local invocation|Enter "rp" to replay)/,
  /^ {3}\* \w+: plant-store-local-\w+$/,
  /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ANY) \S+ \(λ: \w+\)$/,
  /^\(λ: \w+\) RequestId: /,
];

type LogLine = Record<string, unknown> & { level?: string; message?: string; timestamp?: string };

/** The function's JSON log line `line` holds; undefined for any other line. */
export const logLineOf = (line: string): LogLine | undefined => {
  try {
    return line.startsWith('{') ? (JSON.parse(line) as LogLine) : undefined;
  } catch {
    return undefined;
  }
};

const clock = (timestamp: unknown) =>
  typeof timestamp === 'string' ? new Date(timestamp).toTimeString().slice(0, 8) : '--:--:--';

/** `name=value` for the fields a line has, in this order. */
const fields = (log: LogLine, names: Record<string, string>) =>
  Object.entries(names)
    .filter(([field]) => log[field] !== undefined)
    .map(([field, name]) => `${name}=${String(log[field])}`);

/** The change's trace id, its last 8 hex: the writing request's, else the line's own. */
const traceOf = (log: LogLine) => {
  const id = log.request_trace_id ?? log.xray_trace_id;
  return typeof id === 'string' ? [`trace=${id.slice(-8)}`] : [];
};

/** A warning or an error stands out: its level first, in color on a terminal. */
const marked = (log: LogLine, text: string, color: boolean) => {
  if (log.level !== 'WARN' && log.level !== 'ERROR' && log.level !== 'CRITICAL') return text;
  const code = log.level === 'WARN' ? 33 : 31;
  return color ? `\u001b[${code}m${log.level} ${text}\u001b[0m` : `${log.level} ${text}`;
};

type LoggedError = { message?: string; stack?: string; cause?: LoggedError };

/** An error's stack and its causes', indented under the line they belong to. */
const indented = (error: LoggedError): string =>
  [error.stack, ...(error.cause ? [`caused by ${indented(error.cause).trimStart()}`] : [])]
    .join('\n')
    .split('\n')
    .map((line) => `    ${line.trimStart()}`)
    .join('\n');

// One request: `15:38:21 POST /plants 200 3 ms created plant=1 caller=local-user`; by its method
// and path where it has them, as an unknown path's route is API Gateway's `$default`.
const requestLine = (log: LogLine, error?: LoggedError) =>
  [
    clock(log.timestamp),
    ...(log.method !== undefined && log.path !== undefined ? [log.method, log.path] : [log.route]),
    log.status,
    `${Math.round(Number(log.latencyMs))} ms`,
    ...(log.outcome === undefined ? [] : [log.outcome]),
    ...fields(log, { plantId: 'plant', callerSub: 'caller' }),
    ...traceOf(log),
    ...(log.reason === undefined ? [] : [`— ${log.reason}`]),
    ...(error?.message === undefined ? [] : [`— ${error.message}`]),
  ].join(' ');

/** One webhook attempt (the operator's, an endpoint's) or fan-out: its outcome, why, when next. */
const webhookLine = (log: LogLine) =>
  [
    clock(log.timestamp),
    String(log.message),
    ...fields(log, {
      plantId: 'plant',
      endpointId: 'endpoint',
      endpoints: 'endpoints',
      attempt: 'attempt',
      status: 'status',
      reason: 'reason',
      nextAttemptAt: 'next',
      webhookId: 'id',
    }),
    ...traceOf(log),
  ].join(' ');

/** What to show of one output line of serverless-offline: the line, or undefined for none. */
export const terminalLine = (
  line: string,
  { json = false, color = false }: { json?: boolean; color?: boolean } = {},
): string | undefined => {
  if (NOISE.some((pattern) => pattern.test(line))) return undefined;
  const log = logLineOf(line);
  if (!log) return line;
  // a count alone (CloudWatch Embedded Metric Format): CloudWatch's, not a reader's
  if (log.message === undefined && '_aws' in log) return json ? line : undefined;
  if (json) return line;
  if (log.route !== undefined && log.status !== undefined) {
    // a fault of ours: its stack (and its causes') under the line, as a developer needs it
    const error = log.error as LoggedError | undefined;
    const stack = log.level === 'ERROR' && error?.stack ? `\n${indented(error)}` : '';
    return `${marked(log, requestLine(log, error), color)}${stack}`;
  }
  if (typeof log.message === 'string' && /^(webhook|endpoint)\b/.test(log.message))
    return marked(log, webhookLine(log), color);
  // any other log line: its message, and where to see the rest
  const text = `${clock(log.timestamp)} ${log.message ?? line} (npm start -- --json shows all)`;
  return marked(log, text, color);
};
