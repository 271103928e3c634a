// Environment → typed settings, read and validated once at cold start. Each function combines the
// small loaders it needs (auth, store, telemetry, ...), so it never asks for a setting it does not
// use. A bad value stops the function at init with every problem of every loader listed, instead
// of failing request by request.
//
// Plain functions rather than Zod schemas: a dozen variables are checked once per container, and
// building schemas for them cost each function 13 KB of bundle and about 4 ms of every cold start
// (npm run bench). Zod validates what arrives with each request (lib/http/validateInput.ts).

export type Env = Record<string, string | undefined>;

/** Reads one group's variables, noting each problem and carrying on, so that all are reported. */
export interface Variables {
  /** A variable that must be set (not blank), trimmed. */
  required(name: string, what: string): string;
  /** A variable that may be unset; if set, not blank. Trimmed. */
  optional(name: string): string | undefined;
  /** An optional variable that must match `pattern`, else `rule` is the problem. Trimmed. */
  matching(name: string, pattern: RegExp, rule: string): string | undefined;
  /** An optional variable that must pass `test`, else `rule` is the problem. Untrimmed. */
  checked(name: string, test: (value: string) => boolean, rule: string): string | undefined;
  /** An optional http(s) URL. */
  httpUrl(name: string): string | undefined;
  /** An optional URL whose answers must not be swapped in transit: https, except on this machine. */
  secureUrl(name: string): string | undefined;
  /** A whole number above 0, written in decimal digits; `fallback` when unset. */
  positiveInt(name: string, fallback: number): number;
  /** One of `values`; `fallback` when unset. */
  oneOf<Value extends string>(name: string, values: readonly Value[], fallback: Value): Value;
  /** A variable that is no longer read: setting it is a problem, saying what to set instead. */
  retired(name: string, instead: string): void;
  /** Whether a variable is set (not empty). */
  isSet(name: string): boolean;
  /** A problem that involves more than one variable. */
  problem(message: string): void;
}

/** One group of settings: made of the variables it reads. */
export type SettingsLoader<Settings> = (variables: Variables) => Settings;

type SettingsOf<Loaders> = {
  [Name in keyof Loaders]: Loaders[Name] extends SettingsLoader<infer Settings> ? Settings : never;
};

const BLANK = 'must not be blank: leave it unset instead';
const POSITIVE_INT = 'must be a positive integer';
const HTTP_URL = 'must be an http(s) URL';
/** An SQS queue: its URL, in the variable `name`, and the region. */
export const queueSettings =
  (name: string, what: string): SettingsLoader<{ queueUrl: string; region: string }> =>
  (read) => ({
    queueUrl: read.required(name, what),
    region: read.optional('AWS_REGION') ?? 'us-east-1',
  });

export const SECURE_URL_RULE = 'must be an https URL (http only for localhost)';

/**
 * The URL `text` spells out, with its scheme and `//`: the URL parser would also read
 * "http:host" or a URL with spaces or line breaks in it, which are typing mistakes here.
 */
const spelledUrl = (text: string) =>
  /^https?:\/\//i.test(text) && !/\s/.test(text) ? URL.parse(text) : null;

/** An http(s) URL. */
const isHttpUrl = (text: string): boolean => spelledUrl(text) !== null;

/** An https URL, or an http one on this machine. */
export const isSecureUrl = (text: string): boolean => {
  const url = spelledUrl(text);
  return (
    url?.protocol === 'https:' ||
    (url?.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
  );
};

const variablesOf = (env: Env, problems: Set<string>): Variables => {
  // an empty variable means "not set": CloudFormation cannot leave a variable out per stage
  const raw = (name: string) => (env[name] === '' ? undefined : env[name]);
  const refuse = (name: string, message: string) => problems.add(`${name} ${message}`);
  const optional = (name: string) => {
    const value = raw(name)?.trim();
    if (value === '') refuse(name, BLANK);
    return value || undefined;
  };
  /** An optional variable that, when set, must pass `test`. Trimmed. */
  const optionalPassing = (name: string, test: (value: string) => boolean, rule: string) => {
    const value = optional(name);
    if (value !== undefined && !test(value)) refuse(name, rule);
    return value;
  };
  return {
    required: (name, what) => {
      const value = raw(name)?.trim();
      if (!value) refuse(name, `is required: ${what}`);
      return value ?? '';
    },
    optional,
    matching: (name, pattern, rule) => optionalPassing(name, (value) => pattern.test(value), rule),
    checked: (name, test, rule) => {
      const value = raw(name);
      if (value !== undefined && !test(value)) refuse(name, rule);
      return value;
    },
    httpUrl: (name) => optionalPassing(name, isHttpUrl, HTTP_URL),
    secureUrl: (name) => optionalPassing(name, isSecureUrl, SECURE_URL_RULE),
    positiveInt: (name, fallback) => {
      const value = optional(name);
      if (value === undefined) return fallback;
      const number = Number(value);
      if (/^[0-9]+$/.test(value) && Number.isSafeInteger(number) && number > 0) return number;
      refuse(name, POSITIVE_INT);
      return fallback;
    },
    oneOf: (name, values, fallback) => {
      const value = raw(name);
      if (value === undefined) return fallback;
      const known = values.find((candidate) => candidate === value);
      if (known === undefined) refuse(name, `must be one of ${values.join(', ')}`);
      return known ?? fallback;
    },
    retired: (name, instead) => {
      if (raw(name) !== undefined) refuse(name, `is no longer read: ${instead}`);
    },
    isSet: (name) => raw(name) !== undefined,
    problem: (message) => problems.add(message),
  };
};

/** Every loader's settings from `env`, or one error that lists every problem found. */
export const loadConfig = <Loaders extends Record<string, SettingsLoader<unknown>>>(
  env: Env,
  loaders: Loaders,
): SettingsOf<Loaders> => {
  const problems = new Set<string>();
  const variables = variablesOf(env, problems);
  const loaded = Object.fromEntries(
    Object.entries(loaders).map(([name, load]) => [name, load(variables)]),
  );
  if (problems.size > 0) {
    throw new Error(
      `Invalid configuration, fix these environment variables: ${[...problems].join('; ')}`,
    );
  }
  return loaded as SettingsOf<Loaders>;
};
