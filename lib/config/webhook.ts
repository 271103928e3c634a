// The "plant added" webhook: where deliveries go, how they are signed, how patiently they are
// retried, and the queue that keeps what still fails.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { isSecureUrl, queueSettings, SECURE_URL_RULE, type Variables } from './load.ts';
import { telemetrySettings } from './telemetry.ts';

/**
 * The keys of `whsec_<base64>` secrets separated by spaces (24 to 64 bytes, as Standard Webhooks
 * asks); undefined when any is not one. KeyObjects, made once: HMAC would make one per signature.
 */
export const signingKeys = (secrets: string): KeyObject[] | undefined => {
  const keys = secrets
    .split(/\s+/)
    .filter(Boolean)
    .map((secret) => {
      const encoded = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret)?.[1];
      const key = Buffer.from(encoded ?? '', 'base64');
      return key.length >= 24 && key.length <= 64 ? createSecretKey(key) : undefined;
    });
  if (keys.length === 0 || keys.includes(undefined)) return undefined;
  return keys as KeyObject[];
};

export type SecretSource =
  | { kind: 'value'; keys: KeyObject[] }
  /** An SSM Parameter Store SecureString, read when first needed and again every few minutes. */
  | { kind: 'parameter'; name: string };

export type ReceiverSettings = ReturnType<typeof receiverSettings>;
export type WebhookSettings = ReturnType<typeof webhookSettings>;

const secretRule =
  'must be one or more whsec_ secrets (whsec_ and a base64 key of 24 to 64 bytes), separated by spaces';

/** The longest wait: SQS hides a message for at most 12 hours at a time. */
export const MAX_WAIT_MS = 12 * 3600 * 1000;
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
export const SCHEDULE_RULE =
  'must be waits separated by commas, each a whole number of s, m or h from 1s to 12h (as 5s,5m,30m,2h)';

/** The waits of a schedule such as "5s,5m,2h", in ms; undefined when any step is not one. */
export const retrySchedule = (text: string): number[] | undefined => {
  const waits = text.split(',').map((step) => {
    const parts = /^\s*([1-9][0-9]{0,5})(s|m|h)\s*$/.exec(step);
    const wait = parts ? Number(parts[1]) * UNIT_MS[parts[2] as keyof typeof UNIT_MS] : Number.NaN;
    return wait <= MAX_WAIT_MS ? wait : Number.NaN;
  });
  return waits.every(Number.isFinite) ? waits : undefined;
};

/** A queue's URL, which must be set: `what` says why. */
const queueUrl = (read: Variables, name: string, what: string) => {
  if (!read.isSet(name)) read.problem(`${name} is required: ${what}`);
  return read.httpUrl(name) ?? '';
};

/** How long an attempt waits for the receiver's answer, unless WEBHOOK_TIMEOUT_MS says. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 5000;
/** A third of the webhook functions' 30 s timeout: a batch's attempts, writes and sends end inside it. */
export const MAX_ATTEMPT_TIMEOUT_MS = 10_000;

/** How long one attempt waits for an answer. */
const attemptTimeoutMs = (read: Variables) =>
  read.positiveInt('WEBHOOK_TIMEOUT_MS', DEFAULT_ATTEMPT_TIMEOUT_MS, MAX_ATTEMPT_TIMEOUT_MS);

/** Where deliveries go and how they are signed: all the redrive needs. */
export const receiverSettings = (read: Variables) => {
  const url = read.required('WEBHOOK_URL', 'the https URL of the receiver');
  if (url && !isSecureUrl(url)) read.problem(`WEBHOOK_URL ${SECURE_URL_RULE}`);
  const secret = read.checked(
    'WEBHOOK_SECRET',
    (secrets) => signingKeys(secrets) !== undefined,
    secretRule,
  );
  const secretParameter = read.matching(
    'WEBHOOK_SECRET_PARAMETER',
    /^\/[\w.\-/]+$/,
    'must be the name of an SSM parameter, starting with / (a SecureString of whsec_ secrets)',
  );
  if (read.isSet('WEBHOOK_SECRET') === read.isSet('WEBHOOK_SECRET_PARAMETER')) {
    read.problem(
      'set exactly one of WEBHOOK_SECRET and WEBHOOK_SECRET_PARAMETER: the signing secrets, or the SSM parameter that holds them',
    );
  }
  const source: SecretSource = secretParameter
    ? { kind: 'parameter', name: secretParameter }
    : { kind: 'value', keys: signingKeys(secret ?? '') ?? [] };
  return {
    url,
    secret: source,
    timeoutMs: attemptTimeoutMs(read),
    region: read.optional('AWS_REGION') ?? 'us-east-1',
  };
};

/** How each attempt waits for an answer, and how long a failed one waits for the next. */
export const attemptSettings = (read: Variables) => {
  const schedule = read.checked(
    'WEBHOOK_RETRY_SCHEDULE',
    (text) => retrySchedule(text) !== undefined,
    SCHEDULE_RULE,
  );
  return {
    schedule: retrySchedule(schedule ?? DEFAULT_RETRY_SCHEDULE) ?? [],
    timeoutMs: attemptTimeoutMs(read),
  };
};

export const webhookSettings = (read: Variables) => ({
  ...receiverSettings(read),
  // the wait after each failed attempt, in ms: one more attempt per step, then a dead letter
  schedule: attemptSettings(read).schedule,
  retryQueueUrl: queueUrl(
    read,
    'WEBHOOK_RETRY_QUEUE_URL',
    'the SQS queue where events wait to be retried',
  ),
  deadLetterQueueUrl: queueUrl(
    read,
    'WEBHOOK_DEAD_LETTER_QUEUE_URL',
    'the SQS queue that keeps undeliverable events',
  ),
});

/** Where a stream record that cannot be handled is set aside whole (the stream functions'). */
export const streamDeadLetterSettings = /* @__PURE__ */ queueSettings(
  'STREAM_DEAD_LETTER_QUEUE_URL',
  'the SQS queue where stream records that cannot be handled are set aside whole',
);

/** The "plant added" webhook's retries, from their queue. */
export const retryPlantAddedSettings = { webhook: webhookSettings, telemetry: telemetrySettings };

/** The "plant added" webhook, from the stream. */
// its keys written out: a spread at the top level keeps the whole chain in every bundle importing this file
export const deliverPlantAddedSettings = {
  webhook: webhookSettings,
  telemetry: telemetrySettings,
  streamDeadLetters: streamDeadLetterSettings,
};

/** The stream functions' on-failure destination: each failed batch read from its bucket, set aside. */
export const keepFailedStreamRecordsSettings = {
  streamDeadLetters: streamDeadLetterSettings,
  telemetry: telemetrySettings,
};
