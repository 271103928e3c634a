// The functions' bundles as a deploy builds them: esbuild with serverless.yml's custom.esbuild
// settings (the one place they are written). Used by the bench, to measure what Lambda would load,
// and by the tests that check what each bundle holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { parse } from 'yaml';
import { repoRoot } from '../infra/local/paths.ts';

interface EsbuildSettings {
  bundle: boolean;
  minify: boolean;
  format: 'esm';
  platform: 'node';
  target: string;
  mainFields: string[];
  outputFileExtension: string;
  alias: Record<string, string>;
  /** serverless-esbuild's packages left out of the bundle: none, or the bundles would differ. */
  exclude: string[];
}

const APPLIED: readonly (keyof EsbuildSettings)[] = [
  'bundle',
  'minify',
  'format',
  'platform',
  'target',
  'mainFields',
  'outputFileExtension',
  'alias',
  'exclude',
];

const deploySettings = (): EsbuildSettings => {
  const text = readFileSync(join(repoRoot, 'serverless.yml'), 'utf8');
  // CloudFormation tags (!GetAtt) mean nothing here; keep them as plain values
  const config: unknown = parse(text, {
    customTags: [{ tag: '!GetAtt', resolve: (value: string) => value }],
    logLevel: 'silent',
  });
  const settings = (config as { custom?: { esbuild?: Record<string, unknown> } }).custom?.esbuild;
  if (!settings) throw new Error('serverless.yml has no custom.esbuild settings');
  // a setting this file does not apply would make its bundles differ from a deploy's
  const problems = [
    ...Object.keys(settings)
      .filter((key) => !(APPLIED as readonly string[]).includes(key))
      .map((key) => `custom.esbuild.${key} is not applied`),
    ...(Array.isArray(settings.exclude) && settings.exclude.length > 0
      ? ['custom.esbuild.exclude leaves packages out']
      : []),
  ];
  if (problems.length > 0) {
    throw new Error(
      `bench/bundles.ts would build other bundles than a deploy: ${problems.join('; ')}. Teach it the setting, so that the bench and the bundle tests see what Lambda loads.`,
    );
  }
  return settings as unknown as EsbuildSettings;
};

const buildOptions = (entry: string): BuildOptions => {
  const { bundle, minify, format, platform, target, mainFields, alias } = deploySettings();
  return {
    entryPoints: [entry],
    bundle,
    minify,
    format,
    platform,
    target,
    mainFields,
    alias,
    absWorkingDir: repoRoot,
    logLevel: 'error',
  };
};

/**
 * Bundles each entry into `outDir` as `<name>.mjs`; returns each bundle's path. `readable` keeps
 * the names (no minifying), for a profile to name what it measured.
 */
export const buildBundles = async <Name extends string>(
  outDir: string,
  entryFiles: Record<Name, string>,
  { readable = false }: { readable?: boolean } = {},
): Promise<Record<Name, string>> => {
  const { outputFileExtension } = deploySettings();
  const built = {} as Record<Name, string>;
  for (const [name, entry] of Object.entries(entryFiles) as [Name, string][]) {
    const outfile = join(outDir, `${name}${outputFileExtension}`);
    await build({ ...buildOptions(entry), ...(readable ? { minify: false } : {}), outfile });
    built[name] = outfile;
  }
  return built;
};

/** One entry's bundle: its text, and the files it is made of (paths relative to the repository). */
export const bundleOf = async (entry: string): Promise<{ text: string; inputs: string[] }> => {
  const { metafile, outputFiles } = await build({
    ...buildOptions(entry),
    outfile: 'bundle.mjs',
    write: false,
    metafile: true,
  });
  const output = Object.values((metafile as Metafile).outputs)[0];
  return { text: outputFiles?.[0]?.text ?? '', inputs: Object.keys(output?.inputs ?? {}) };
};
