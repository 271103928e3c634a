// A setting is one loader that declares its variables (defineSettings, lib/config/); each variable's
// source is one line of serverless.yml's custom.environment, from which each function's environment
// is made (infra/functionSettings.cjs). A place missing fails here, saying what to do.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { defineSettings, loadConfig } from '#lib/config/load.ts';
import { repoRoot } from '../../infra/local/paths.ts';

const require = createRequire(import.meta.url);
type Resolve = (name: string) => Promise<unknown>;
const functionSettings: Record<
  string,
  (options: { resolveVariable: Resolve }) => Promise<unknown>
> & {
  environmentOf: (resolve: Resolve, variables: string[]) => Promise<Record<string, unknown>>;
} = require('../../infra/functionSettings.cjs');
const sources: Record<string, unknown> = parse(
  readFileSync(join(repoRoot, 'serverless.yml'), 'utf8'),
  { logLevel: 'error' },
).custom.environment;
const resolveVariable = async () => sources;

/** Every variable the loaders of lib/config/ declare. */
const declared = async () => {
  const names = new Set<string>();
  for (const file of readdirSync(join(repoRoot, 'lib', 'config'))) {
    const exported: Record<string, { variables?: string[] }> = await import(
      `#lib/config/${file.replace(/\.ts$/, '')}.ts`
    );
    for (const value of Object.values(exported))
      for (const name of value.variables ?? []) names.add(name);
  }
  return [...names].sort();
};

it("serverless.yml gives each declared variable one source, and no other's", async () => {
  expect(Object.keys(sources).sort()).toEqual(await declared());
});

it('a variable without a source, or a source no loader reads, stops the package, saying what to do', async () => {
  const environmentOf = functionSettings.environmentOf;
  await expect(environmentOf(resolveVariable, ['PLANTS_MAX_TAG_LENGTH'])).rejects.toThrow(
    'serverless.yml custom.environment: PLANTS_MAX_TAG_LENGTH has no source: give each variable a loader declares one line there',
  );
  const extra = async () => ({ ...sources, PLANTS_MAX_TAG_LENGTH: '20' });
  await expect(environmentOf(extra, ['PLANTS_TABLE'])).rejects.toThrow(
    'PLANTS_MAX_TAG_LENGTH is read by no loader',
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
    'DYNAMODB_ENDPOINT',
    'LOG_LEVEL',
    'METRICS_NAMESPACE',
    'STREAM_DEAD_LETTER_QUEUE_URL',
  ]);
});

it('a loader reading a variable it does not declare fails at load, naming it', () => {
  const scratch = defineSettings(['PLANTS_TABLE'], (read) => ({
    // a cast slips past the type check: the load still refuses it
    tagLength: read.optional('PLANTS_MAX_TAG_LENGTH' as 'PLANTS_TABLE'),
  }));
  expect(() => loadConfig({}, { scratch })).toThrow(
    'PLANTS_MAX_TAG_LENGTH is read but not declared: add it to its defineSettings list',
  );
  // and the type check refuses it without the cast
  // @ts-expect-error: not declared
  defineSettings(['PLANTS_TABLE'], (read) => read.optional('PLANTS_MAX_TAG_LENGTH'));
});
