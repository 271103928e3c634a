// X-Ray subsegments without the SDK (its size, its cold start): a UDP datagram each to Lambda's daemon
// of a sampled invocation; none without one (the local run, the tests); a lost one fails nothing.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:dgram';

// the container's: "host:port", or "tcp:host:port udp:host:port"
const [, host, port] =
  /(?:^|udp:)([^\s:]+):(\d+)(?:\s|$)/.exec(process.env.AWS_XRAY_DAEMON_ADDRESS ?? '') ?? [];
let socket: Socket | undefined;
const newId = () => randomBytes(8).toString('hex');

/** A subsegment of the invocation (or of `parent`) from `at` (epoch ms); none if not sampled. */
export const startSubsegment = (name: string, at = Date.now(), parent?: { id: string }) => {
  // each invocation's own, set by Lambda
  const [, traceId, parentId] =
    /Root=([^;]+);Parent=([^;]+);Sampled=1/.exec(process.env._X_AMZN_TRACE_ID ?? '') ?? [];
  if (!port || !traceId) return undefined;
  const id = newId();
  const head = { type: 'subsegment', id, trace_id: traceId, parent_id: parent?.id ?? parentId };
  const end = (fields: object = {}) => {
    const times = { name, start_time: at / 1000, end_time: Date.now() / 1000 };
    try {
      // dgram loaded at the first send: a container never sampled never loads it (~1.5 ms)
      const { createSocket } = process.getBuiltinModule('node:dgram');
      socket ??= createSocket('udp4').on('error', () => {});
      const document = JSON.stringify({ ...head, ...times, ...fields });
      socket.unref().send(`{"format": "json", "version": 1}\n${document}`, Number(port), host);
    } catch {}
  };
  return { id, end };
};
export type Subsegment = NonNullable<ReturnType<typeof startSubsegment>>;

/** An answer's flags (4xx error, 429 throttle, 5xx fault) or no answer's (fault), and why. */
const outcomeOf = (status: number | undefined, failure?: string) => ({
  ...(status === undefined || status >= 500 ? { fault: true } : { error: status >= 400 }),
  ...(status === 429 ? { throttle: true } : {}),
  ...(failure ? { cause: { exceptions: [{ id: newId(), message: failure }] } } : {}),
});

type Answer = { status?: number; reason?: string };

/** A POST to a receiver: its host, its url's origin only (a path or query may carry a secret), its answer. */
export const postFields = (url: string, { status, reason }: Answer) => {
  const { hostname, origin } = new URL(url);
  const http = { request: { method: 'POST', url: origin }, response: { status } };
  return { name: hostname, namespace: 'remote', http, ...outcomeOf(status, reason) };
};

type Metadata = { $metadata?: { attempts?: number; httpStatusCode?: number; requestId?: string } };
type Send<Input> = (call: { input: Input }) => Promise<{ output: Metadata }>;
type Names = { clientName?: string; commandName?: string };
type Named = { TableName?: string; QueueUrl?: string; TransactItems?: Record<string, Named>[] };
type Middleware<Input> = (next: Send<Input>, names: Names) => Send<Input>;

/** Each call of the client a subsegment: operation, table or queue, outcome, time with retries. */
export const traceCalls = <Input extends object>(client: {
  middlewareStack: { add(middleware: Middleware<Input>, options: object): void };
}) => {
  const middleware: Middleware<Input> =
    (next, { clientName = '', commandName = '' }) =>
    (call) => {
      const subsegment = startSubsegment(clientName.replace(/Client$/, ''));
      if (!subsegment) return next(call);
      const { TableName, QueueUrl: queue_url, TransactItems } = call.input as Named;
      // a transaction's: its first item's (each of ours is of one table)
      const table_name = TableName ?? Object.values(TransactItems?.[0] ?? {})[0]?.TableName;
      const operation = { operation: commandName.replace(/Command$/, ''), table_name, queue_url };
      const ended = ({ $metadata: m = {} }: Metadata, failure?: string) =>
        subsegment.end({
          namespace: 'aws',
          aws: { ...operation, request_id: m.requestId, retries: (m.attempts ?? 1) - 1 },
          ...(failure ? outcomeOf(m.httpStatusCode, failure) : {}),
        });
      const sent = next(call);
      sent.then(
        ({ output }) => ended(output),
        (error) => ended(error ?? {}, String(error)),
      );
      return sent;
    };
  // the first step: its subsegment times the whole call, retries included
  client.middlewareStack.add(middleware, { step: 'initialize', name: 'xraySubsegment' });
};
