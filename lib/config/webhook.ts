// The "plant added" webhook: where deliveries go, how they are signed, how patiently they are
// retried, and where what still fails is kept.
import * as z from 'zod/mini';
import { signingKeys } from '#lib/webhooks/signature.ts';
import {
  defineSettings,
  type Env,
  httpUrl,
  optionalText,
  positiveInt,
  required,
  secureUrl,
} from './load.ts';

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

const exactlyOne = (env: Env, names: [string, string], what: string) =>
  Boolean(env[names[0]]) === Boolean(env[names[1]])
    ? [`set exactly one of ${names[0]} and ${names[1]}: ${what}`]
    : [];

export const webhookSettings = defineSettings(
  z.object({
    WEBHOOK_URL: required('the https URL of the receiver').check(
      z.refine(
        (url) => secureUrl.safeParse(url).success,
        'must be an https URL (http only for localhost)',
      ),
    ),
    WEBHOOK_SECRET: z.optional(
      z.string().check(z.refine((secrets) => signingKeys(secrets) !== undefined, secretRule)),
    ),
    WEBHOOK_SECRET_PARAMETER: z.optional(
      z
        .string()
        .check(
          z.regex(
            /^\/[\w.\-/]+$/,
            'must be the name of an SSM parameter, starting with / (a SecureString of whsec_ secrets)',
          ),
        ),
    ),
    WEBHOOK_TIMEOUT_MS: positiveInt(5000),
    WEBHOOK_ATTEMPTS: positiveInt(3),
    WEBHOOK_BACKOFF_MS: positiveInt(1000),
    WEBHOOK_DEAD_LETTER_QUEUE_URL: z.optional(httpUrl),
    WEBHOOK_DEAD_LETTER_DIR: optionalText,
    AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  }),
  (env): WebhookSettings => ({
    url: env.WEBHOOK_URL,
    secret: env.WEBHOOK_SECRET_PARAMETER
      ? { kind: 'parameter', name: env.WEBHOOK_SECRET_PARAMETER }
      : { kind: 'value', keys: signingKeys(env.WEBHOOK_SECRET ?? '') ?? [] },
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    attempts: env.WEBHOOK_ATTEMPTS,
    backoffMs: env.WEBHOOK_BACKOFF_MS,
    deadLetters: env.WEBHOOK_DEAD_LETTER_QUEUE_URL
      ? { kind: 'queue', url: env.WEBHOOK_DEAD_LETTER_QUEUE_URL }
      : { kind: 'folder', dir: env.WEBHOOK_DEAD_LETTER_DIR ?? '' },
    region: env.AWS_REGION,
  }),
  (env) => [
    ...exactlyOne(
      env,
      ['WEBHOOK_SECRET', 'WEBHOOK_SECRET_PARAMETER'],
      'the signing secrets, or the SSM parameter that holds them',
    ),
    ...exactlyOne(
      env,
      ['WEBHOOK_DEAD_LETTER_QUEUE_URL', 'WEBHOOK_DEAD_LETTER_DIR'],
      'the SQS queue that keeps undeliverable events, or a folder for a local run',
    ),
  ],
);
