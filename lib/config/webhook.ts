// The "plant added" webhook: where deliveries go, how they are signed, how patiently they are
// retried, and where what still fails is kept.
import { isSecureUrl, SECURE_URL_RULE, type SettingsLoader, type Variables } from './load.ts';

const SECRET_PREFIX = 'whsec_';

/**
 * The signing keys of `whsec_<base64>` secrets separated by spaces; undefined when any is not one
 * (a key shorter than 24 bytes counts as not one: Standard Webhooks asks for 24 to 64).
 */
export const signingKeys = (secrets: string): Buffer[] | undefined => {
  const keys = secrets
    .split(/\s+/)
    .filter(Boolean)
    .map((secret) => {
      if (!secret.startsWith(SECRET_PREFIX)) return undefined;
      const encoded = secret.slice(SECRET_PREFIX.length);
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
      const key = Buffer.from(encoded, 'base64');
      return key.length >= 24 && key.length <= 64 ? key : undefined;
    });
  if (keys.length === 0 || keys.some((key) => key === undefined)) return undefined;
  return keys as Buffer[];
};

export type SecretSource =
  | { kind: 'value'; keys: Buffer[] }
  /** An SSM Parameter Store SecureString, read when first needed and again every few minutes. */
  | { kind: 'parameter'; name: string };

export type DeadLetterTarget = { kind: 'queue'; url: string } | { kind: 'folder'; dir: string };

export interface WebhookSettings {
  url: string;
  secret: SecretSource;
  /** How long one attempt may wait for an answer. */
  timeoutMs: number;
  /** Attempts per event in one invocation, before it goes to the dead letters. */
  attempts: number;
  /** The wait after the first failed attempt; each later one doubles it. */
  backoffMs: number;
  deadLetters: DeadLetterTarget;
  region: string;
}

const secretRule =
  'must be one or more whsec_ secrets (whsec_ and a base64 key of 24 to 64 bytes), separated by spaces';

/** Exactly one of two variables must be set; else the problem says which and why. */
const exactlyOne = (read: Variables, names: [string, string], what: string) => {
  if (read.isSet(names[0]) === read.isSet(names[1])) {
    read.problem(`set exactly one of ${names[0]} and ${names[1]}: ${what}`);
  }
};

export const webhookSettings: SettingsLoader<WebhookSettings> = (read) => {
  const url = read.required('WEBHOOK_URL', 'the https URL of the receiver');
  if (url && !isSecureUrl(url)) {
    read.problem(`WEBHOOK_URL ${SECURE_URL_RULE}`);
  }
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
  exactlyOne(
    read,
    ['WEBHOOK_SECRET', 'WEBHOOK_SECRET_PARAMETER'],
    'the signing secrets, or the SSM parameter that holds them',
  );
  const queueUrl = read.httpUrl('WEBHOOK_DEAD_LETTER_QUEUE_URL');
  const deadLetterDir = read.optional('WEBHOOK_DEAD_LETTER_DIR');
  exactlyOne(
    read,
    ['WEBHOOK_DEAD_LETTER_QUEUE_URL', 'WEBHOOK_DEAD_LETTER_DIR'],
    'the SQS queue that keeps undeliverable events, or a folder for a local run',
  );
  return {
    url,
    secret: secretParameter
      ? { kind: 'parameter', name: secretParameter }
      : { kind: 'value', keys: signingKeys(secret ?? '') ?? [] },
    timeoutMs: read.positiveInt('WEBHOOK_TIMEOUT_MS', 5000),
    attempts: read.positiveInt('WEBHOOK_ATTEMPTS', 3),
    backoffMs: read.positiveInt('WEBHOOK_BACKOFF_MS', 1000),
    deadLetters: queueUrl
      ? { kind: 'queue', url: queueUrl }
      : { kind: 'folder', dir: deadLetterDir ?? '' },
    region: read.optional('AWS_REGION') ?? 'us-east-1',
  };
};
