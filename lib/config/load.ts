// Environment → typed settings, read and validated once at cold start. Each function combines the
// small loaders it needs (auth, store, telemetry, ...), so it never asks for a setting it does not
// use. A bad value stops the function at init with every problem of every loader listed, instead
// of failing request by request.
import * as z from 'zod/mini';

export type Env = Record<string, string | undefined>;

/** One group of settings: the variables it reads, and the typed settings it makes of them. */
export interface SettingsLoader<Settings> {
  variables: z.ZodMiniObject;
  /** Problems that involve more than one variable, checked even when others are wrong too. */
  crossProblems?: (env: Env) => string[];
  settings: (values: Record<string, unknown>) => Settings;
}

export const defineSettings = <Shape extends z.core.$ZodLooseShape, Settings>(
  variables: z.ZodMiniObject<Shape>,
  settings: (values: z.infer<z.ZodMiniObject<Shape>>) => Settings,
  crossProblems?: (env: Env) => string[],
): SettingsLoader<Settings> => ({
  variables,
  settings: settings as (values: Record<string, unknown>) => Settings,
  ...(crossProblems ? { crossProblems } : {}),
});

type SettingsOf<Loaders> = {
  [Name in keyof Loaders]: Loaders[Name] extends SettingsLoader<infer Settings> ? Settings : never;
};

/** Every loader's settings from `env`, or one error that lists every problem found. */
export const loadConfig = <Loaders extends Record<string, SettingsLoader<unknown>>>(
  env: Env,
  loaders: Loaders,
): SettingsOf<Loaders> => {
  // an empty variable means "not set": CloudFormation cannot leave a variable out per stage
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const problems = new Set<string>();
  const loaded: Record<string, unknown> = {};
  for (const [name, loader] of Object.entries(loaders)) {
    const parsed = loader.variables.safeParse(given);
    for (const issue of parsed.error?.issues ?? []) {
      problems.add(`${issue.path.join('.')} ${issue.message}`);
    }
    const crossProblems = loader.crossProblems?.(given) ?? [];
    for (const problem of crossProblems) problems.add(problem);
    if (parsed.success && crossProblems.length === 0) loaded[name] = loader.settings(parsed.data);
  }
  if (problems.size > 0) {
    throw new Error(
      `Invalid configuration, fix these environment variables: ${[...problems].join('; ')}`,
    );
  }
  return loaded as SettingsOf<Loaders>;
};

// The rules the loaders share.

export const required = (what: string) =>
  z
    .string({ error: `is required: ${what}` })
    .check(z.trim(), z.minLength(1, `is required: ${what}`));

export const optionalText = z.optional(
  z.string().check(z.trim(), z.minLength(1, 'must not be blank: leave it unset instead')),
);

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const isLoopback = (url: string) =>
  ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);

/** An address whose answers must not be swapped in transit: https, except on this machine. */
export const secureUrl = httpUrl.check(
  z.refine(
    (url) => url.startsWith('https:') || isLoopback(url),
    'must be an https URL (http only for localhost)',
  ),
);

export const positiveInt = (fallback: number) =>
  z._default(
    z.coerce
      .number({ error: 'must be a positive integer' })
      .check(z.int('must be a positive integer'), z.positive('must be a positive integer')),
    fallback,
  );
