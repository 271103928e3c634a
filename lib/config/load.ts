// Environment → typed settings, checked once at cold start; a bad value stops the function at init,
// listing every problem. Plain functions, not Zod: schemas cost each function 13 KB and ~4 ms of
// every cold start (npm run bench); Zod validates what each request brings.

export type Env = Record<string, string | undefined>;

/** One group of settings, made of the variables it reads: `variablesOf` finds them (each
 * function's environment, its docs and tests derive from them). */
export type SettingsLoader<Settings> = (read: Variables) => Settings;

/** The variables a group of loaders reads, each once: found by loading them from a recording env,
 * unset and then all set (a read behind a condition on another variable is found too). */
export const variablesOf = (loaders: Record<string, SettingsLoader<unknown>>) => {
  const names = new Set<string>();
  for (const value of [undefined, 'true']) {
    const get = (_: Env, name: string | symbol) => {
      names.add(String(name));
      return value;
    };
    const recording = new Proxy<Env>({}, { get });
    for (const load of Object.values(loaders)) load(reader(recording, new Set()));
  }
  return [...names];
};

type SettingsOf<Loaders> = {
  [Name in keyof Loaders]: Loaders[Name] extends SettingsLoader<infer Settings> ? Settings : never;
};

const BLANK = 'must not be blank: leave it unset instead';
/** An SQS queue: its URL, in the variable `name`, and the region. */
export const queueSettings =
  (name: string, what: string): SettingsLoader<{ queueUrl: string; region: string }> =>
  (read: Variables) => ({
    queueUrl: read.required(name, what),
    region: read.optional('AWS_REGION') ?? 'us-east-1',
  });

export const SECURE_URL_RULE = 'must be an https URL (http only for localhost)';

/** The URL `text` spells out with its scheme and `//` ("http:host" or spaces are typing mistakes). */
const spelledUrl = (text: string) =>
  /^https?:\/\//i.test(text) && !/\s/.test(text) ? URL.parse(text) : null;

/** An https URL, or an http one on this machine. */
export const isSecureUrl = (text: string): boolean => {
  const url = spelledUrl(text);
  return (
    url?.protocol === 'https:' ||
    (url?.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
  );
};

/** Reads one group's variables, noting each problem and carrying on, so that all are reported. */
const reader = (env: Env, problems: Set<string>) => {
  // an empty variable means "not set": CloudFormation cannot leave a variable out per stage
  const raw = (name: string) => (env[name] === '' ? undefined : env[name]);
  const refuse = (name: string, message: string) => problems.add(`${name} ${message}`);
  /** A variable that may be unset; if set, not blank. Trimmed. */
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
    /** A variable that must be set (not blank), trimmed. */
    required: (name: string, what: string) => {
      const value = raw(name)?.trim();
      if (!value) refuse(name, `is required: ${what}`);
      return value ?? '';
    },
    optional,
    matching: (name: string, pattern: RegExp, rule: string) =>
      optionalPassing(name, (value) => pattern.test(value), rule),
    /** An optional variable that must pass `test`. Untrimmed. */
    checked: (name: string, test: (value: string) => boolean, rule: string) => {
      const value = raw(name);
      if (value !== undefined && !test(value)) refuse(name, rule);
      return value;
    },
    httpUrl: (name: string) =>
      optionalPassing(name, (text) => spelledUrl(text) !== null, 'must be an http(s) URL'),
    /** An optional URL whose answers must not be swapped in transit. */
    secureUrl: (name: string) => optionalPassing(name, isSecureUrl, SECURE_URL_RULE),
    /** A whole number above 0 (and at most `most`) in decimal digits; `fallback` when unset. */
    positiveInt: (name: string, fallback: number, most = Number.MAX_SAFE_INTEGER) => {
      const value = optional(name);
      if (value === undefined) return fallback;
      const number = Number(value);
      if (/^[0-9]+$/.test(value) && number > 0 && number <= most) return number;
      refuse(
        name,
        most < Number.MAX_SAFE_INTEGER
          ? `must be a whole number from 1 to ${most}`
          : 'must be a positive integer',
      );
      return fallback;
    },
    /** `true` or `false`, trimmed; `fallback` when unset. */
    flag: (name: string, fallback: boolean) => {
      const value = optional(name);
      if (value === 'true' || value === 'false') return value === 'true';
      if (value !== undefined) refuse(name, 'must be one of true, false');
      return fallback;
    },
    /** One of `values`, untrimmed; `fallback` when unset. */
    oneOf: <Value extends string>(name: string, values: readonly Value[], fallback: Value) => {
      const value = raw(name);
      if (value === undefined) return fallback;
      const known = values.find((candidate) => candidate === value);
      if (known === undefined) refuse(name, `must be one of ${values.join(', ')}`);
      return known ?? fallback;
    },
    /** A variable no longer read: setting it is a problem, saying what to set instead. */
    retired: (name: string, instead: string) => {
      if (raw(name) !== undefined) refuse(name, `is no longer read: ${instead}`);
    },
    isSet: (name: string) => raw(name) !== undefined,
    /** A problem that involves more than one variable; undefined, for a loader to return. */
    problem: (message: string): undefined => {
      problems.add(message);
    },
  };
};

export type Variables = ReturnType<typeof reader>;

/** Every loader's settings from `env`, or one error that lists every problem found. */
export const loadConfig = <Loaders extends Record<string, SettingsLoader<unknown>>>(
  env: Env,
  loaders: Loaders,
): SettingsOf<Loaders> => {
  const problems = new Set<string>();
  const loaded = Object.fromEntries(
    Object.entries(loaders).map(([name, load]) => [name, load(reader(env, problems))]),
  );
  if (problems.size > 0) {
    throw new Error(
      `Invalid configuration, fix these environment variables: ${[...problems].join('; ')}`,
    );
  }
  return loaded as SettingsOf<Loaders>;
};
