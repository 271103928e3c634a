// One DynamoDB document client a container, bounded so a slow store is a 503 within the timeout.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDbSettings, StoreSettings } from '#lib/config/store.ts';
import { traceCalls } from '#lib/xray.ts';

export const createDocumentClient = (settings: DynamoDbSettings): DynamoDBDocumentClient => {
  const client = new DynamoDBClient({
    region: settings.region,
    maxAttempts: settings.maxAttempts,
    requestHandler: {
      connectionTimeout: settings.connectTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // without it the SDK only logs a warning and keeps waiting on a silent connection
      throwOnRequestTimeout: true,
    },
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
  });
  traceCalls(client);
  // an optional field left unset is absent from the item, as it is from the value
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
};

/** The AbortSignal the SDK reads: Node's, or any object like this one (@smithy/types). */
type SdkAbortSignal = { aborted: boolean; onabort: (() => void) | null; reason?: unknown };

// each request signal's calls: one listener a signal however many calls, let go with the signal
const callsOf = new WeakMap<AbortSignal, SdkAbortSignal[]>();

/** The SDK's options of a request that stops when `signal` aborts. */
export const abortable = (signal: AbortSignal | undefined): { abortSignal?: SdkAbortSignal } => {
  if (!signal) return {};
  // the SDK's own AbortSignal type, one per call (its steps take turns setting onabort): given Node's,
  // it adds and removes listeners at each step, 0.03 of the create's warm floor; this, 0.02
  const abortSignal: SdkAbortSignal = { aborted: signal.aborted, onabort: null };
  const calls = callsOf.get(signal);
  if (calls) calls.push(abortSignal);
  else {
    const waiting = [abortSignal];
    callsOf.set(signal, waiting);
    const abort = () => {
      for (const call of waiting) Object.assign(call, { aborted: true, reason: signal.reason });
      for (const call of waiting) call.onabort?.();
    };
    signal.addEventListener('abort', abort, { once: true });
  }
  return { abortSignal };
};

export interface DynamoTarget {
  client: DynamoDBDocumentClient;
  table: string;
  now?: () => Date;
}

export const dynamoTargetFrom = ({ table, dynamodb }: StoreSettings): DynamoTarget => ({
  client: createDocumentClient(dynamodb),
  table,
});
