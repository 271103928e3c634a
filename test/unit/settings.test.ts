// A setting is one loader, whose variables are the names it reads (lib/config/); each variable's
// source is one line of serverless.yml's custom.environment, from which each function's environment
// is made (infra/functionSettings.cjs). A place missing fails here, saying what to do.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { type SettingsLoader, variablesOf } from '#lib/config/load.ts';
import { repoRoot } from '../../infra/local/paths.ts';

const require = createRequire(import.meta.url);
type Resolve = (name: string) => Promise<unknown>;
const functionSettings: Record<
  string,
  (options: { resolveVariable: Resolve }) => Promise<unknown>
> & {
  environmentOf: (resolve: Resolve, variables: string[]) => Promise<Record<string, unknown>>;
  functionVariables: () => Promise<Record<string, string[]>>;
} = require('../../infra/functionSettings.cjs');
const sources: Record<string, unknown> = parse(
  readFileSync(join(repoRoot, 'serverless.yml'), 'utf8'),
  { logLevel: 'error' },
).custom.environment;
const resolveVariable = async () => sources;

/** Every variable some function reads. */
const declared = async () =>
  [...new Set(Object.values(await functionSettings.functionVariables()).flat())].sort();

it("serverless.yml gives each variable a function reads one source, and no other's", async () => {
  expect(Object.keys(sources).sort()).toEqual(await declared());
});

it('a variable without a source, or a source no loader reads, stops the package, saying what to do', async () => {
  const environmentOf = functionSettings.environmentOf;
  await expect(environmentOf(resolveVariable, ['SCRATCH_UNREAD_SETTING'])).rejects.toThrow(
    'serverless.yml custom.environment: SCRATCH_UNREAD_SETTING has no source: give each variable a loader reads one line there',
  );
  const extra = async () => ({ ...sources, SCRATCH_UNREAD_SETTING: '20' });
  await expect(environmentOf(extra, ['PLANTS_TABLE'])).rejects.toThrow(
    'SCRATCH_UNREAD_SETTING is read by no function',
  );
  // Lambda's own, and those the deploy leaves unset (~), are not in the environment
  expect(await environmentOf(resolveVariable, ['PLANTS_TABLE', 'AWS_REGION'])).toEqual({
    PLANTS_TABLE: sources.PLANTS_TABLE,
  });
});

it("gives each function that is no route its handler's loaders' variables", async () => {
  const variables = async (name: string) =>
    Object.keys((await functionSettings[name]?.({ resolveVariable })) ?? {}).sort();
  expect(await variables('unmatchedRoute')).toEqual(['LOG_LEVEL', 'METRICS_NAMESPACE']);
  expect(await variables('keepFailedStreamRecords')).toEqual([
    'LOG_LEVEL',
    'METRICS_NAMESPACE',
    'STREAM_DEAD_LETTER_QUEUE_URL',
  ]);
});

it('finds the variables a loader reads, those of the loaders it reads through too', () => {
  const tagLength: SettingsLoader<number> = (read) => read.positiveInt('PLANTS_MAX_TAG_LENGTH', 40);
  const fields: SettingsLoader<unknown> = (read) => ({
    table: read.required('PLANTS_TABLE', 'the table'),
    maxTagLength: tagLength(read),
  });
  expect(variablesOf({ fields })).toEqual(['PLANTS_TABLE', 'PLANTS_MAX_TAG_LENGTH']);
  // a read that depends on another variable's value is found too
  const conditional: SettingsLoader<unknown> = (read) =>
    read.flag('PLANTS_LIMITED', false) ? read.positiveInt('PLANTS_MAX_TAG_LENGTH', 40) : undefined;
  expect(variablesOf({ conditional })).toEqual(['PLANTS_LIMITED', 'PLANTS_MAX_TAG_LENGTH']);
});
