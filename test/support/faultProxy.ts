// A fault-injecting HTTP proxy between a DynamoDB client and DynamoDB Local, on 127.0.0.1. Each
// request it receives (an attempt, in the SDK's terms) gets the next fault of its script: pass
// through, after a delay or not; drop the connection without answering; hang forever; answer as
// DynamoDB does when it throttles or fails; or forward the request and then drop the reply (the
// write is done, the client never hears of it). Every attempt is recorded.
import {
  createServer,
  request as forward,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from '../../infra/local/freePort.ts';

export type FaultKind =
  /** Forward to DynamoDB and relay its answer. */
  | 'pass'
  /** Close the connection without a byte of answer (a reset). */
  | 'drop'
  /** Keep the connection open and never answer: only the client's timeout ends it. */
  | 'hang'
  /** 400 ProvisionedThroughputExceededException, as DynamoDB throttles a table. */
  | 'throughputExceeded'
  /** 400 ThrottlingException, as DynamoDB throttles control-plane or account-level requests. */
  | 'throttling'
  /** 500 InternalServerError. */
  | 'internalError'
  /** 400 ValidationException, as DynamoDB refuses to read an index that is still being filled. */
  | 'indexBackfilling'
  /** 400 ValidationException, as DynamoDB answers a Query of an index the table does not have. */
  | 'unknownIndex'
  /** 400 TransactionCanceledException: another transaction was writing the first of its items. */
  | 'transactionConflict'
  /** Forward to DynamoDB, wait for its whole answer, then drop the connection instead of relaying it. */
  | 'dropReply';

export interface Fault {
  kind: FaultKind;
  /** Wait this long before acting (a slow network or a slow DynamoDB). */
  delayMs?: number;
}

export interface Attempt {
  /** The DynamoDB operation, from X-Amz-Target (PutItem, Scan, ...). */
  operation: string;
  fault: Fault;
  /** When the request arrived and when its connection closed (performance.now()). */
  startedAt: number;
  closedAt: number | undefined;
  /** Whether DynamoDB Local received it (pass, dropReply). */
  forwarded: boolean;
}

export interface FaultProxy {
  /** The endpoint to give the DynamoDB client. */
  endpoint: string;
  /** The faults for the next attempts, in order; once they are used up, `then` (default: pass). */
  script: (faults: readonly (Fault | FaultKind)[], then?: Fault | FaultKind) => void;
  /** Every attempt since the last `reset`. */
  attempts: () => readonly Attempt[];
  /** Pass everything again and forget the attempts. */
  reset: () => void;
  stop: () => Promise<void>;
}

const AMZ_JSON = 'application/x-amz-json-1.0';
const errorBodies: Partial<
  Record<
    FaultKind,
    { status: number; type: string; message: string; fields?: Record<string, unknown> }
  >
> = {
  throughputExceeded: {
    status: 400,
    type: 'ProvisionedThroughputExceededException',
    message:
      'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  },
  throttling: {
    status: 400,
    type: 'ThrottlingException',
    message: 'Rate of requests exceeds the allowed throughput.',
  },
  internalError: { status: 500, type: 'InternalServerError', message: 'Internal server error' },
  indexBackfilling: {
    status: 400,
    type: 'ValidationException',
    message: 'Cannot read from backfilling global secondary index: plantsByCreator',
  },
  unknownIndex: {
    status: 400,
    type: 'ValidationException',
    message: 'The table does not have the specified index: plantsByCreator',
  },
  transactionConflict: {
    status: 400,
    type: 'TransactionCanceledException',
    message:
      'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
    fields: {
      CancellationReasons: [
        { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
        { Code: 'None' },
      ],
    },
  },
};

const readBody = (message: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });

const asFault = (fault: Fault | FaultKind): Fault =>
  typeof fault === 'string' ? { kind: fault } : fault;

export const startFaultProxy = async (target: string): Promise<FaultProxy> => {
  const upstream = new URL(target);
  let pending: Fault[] = [];
  let fallback: Fault = { kind: 'pass' };
  let attempts: Attempt[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const passOn = async (
    incoming: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const outgoing = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (reply) => {
          readBody(reply).then(
            (replyBody) =>
              resolve({ status: reply.statusCode ?? 502, headers: reply.headers, body: replyBody }),
            reject,
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(incoming);
    const fault = pending.shift() ?? fallback;
    const target = String(incoming.headers['x-amz-target'] ?? '');
    const attempt: Attempt = {
      operation: target.split('.').pop() ?? target,
      fault,
      startedAt: performance.now(),
      closedAt: undefined,
      forwarded: false,
    };
    attempts.push(attempt);
    incoming.socket.once('close', () => {
      attempt.closedAt = performance.now();
    });

    if (fault.delayMs) await sleep(fault.delayMs);
    if (incoming.socket.destroyed) return;
    switch (fault.kind) {
      case 'hang':
        return;
      case 'drop':
        incoming.socket.destroy();
        return;
      case 'pass':
      case 'dropReply': {
        attempt.forwarded = true;
        const reply = await passOn(incoming, body);
        if (fault.kind === 'dropReply') {
          incoming.socket.destroy();
          return;
        }
        response.writeHead(reply.status, reply.headers).end(reply.body);
        return;
      }
      default: {
        const error = errorBodies[fault.kind];
        if (!error) throw new Error(`unknown fault ${fault.kind}`);
        response
          .writeHead(error.status, {
            'content-type': AMZ_JSON,
            'x-amzn-requestid': crypto.randomUUID(),
          })
          .end(
            JSON.stringify({
              __type: `com.amazonaws.dynamodb.v20120810#${error.type}`,
              message: error.message,
              ...error.fields,
            }),
          );
      }
    }
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch(() => incoming.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));

  return {
    endpoint: `http://127.0.0.1:${port}`,
    script: (faults, then = 'pass') => {
      pending = faults.map(asFault);
      fallback = asFault(then);
    },
    attempts: () => attempts,
    reset: () => {
      pending = [];
      fallback = { kind: 'pass' };
      attempts = [];
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
