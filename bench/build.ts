// Builds the shipped handler and the baseline with the esbuild settings of serverless.yml
// (custom.esbuild), so that both are measured as Lambda would load them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { repoRoot } from '../infra/local/paths.ts';

export const entries = {
  ours: join(repoRoot, 'handlers', 'createPlant.ts'),
  baseline: join(repoRoot, 'bench', 'baseline', 'handler.ts'),
} as const;
export type Subject = keyof typeof entries;

interface EsbuildSettings {
  bundle: boolean;
  minify: boolean;
  format: 'esm';
  platform: 'node';
  target: string;
  mainFields: string[];
  outputFileExtension: string;
  alias: Record<string, string>;
}

/** serverless.yml's custom.esbuild: the one place the bundle settings are written. */
const deploySettings = (): EsbuildSettings => {
  const text = readFileSync(join(repoRoot, 'serverless.yml'), 'utf8');
  // CloudFormation tags (!GetAtt) mean nothing here; keep them as plain values
  const config = parse(text, {
    customTags: [{ tag: '!GetAtt', resolve: (value: string) => value }],
    logLevel: 'silent',
  });
  return config.custom.esbuild;
};

/** Bundles both handlers into `outDir`; returns each bundle's path. */
export const buildHandlers = async (outDir: string): Promise<Record<Subject, string>> => {
  const { bundle, minify, format, platform, target, mainFields, outputFileExtension, alias } =
    deploySettings();
  const built = {} as Record<Subject, string>;
  for (const [subject, entry] of Object.entries(entries) as [Subject, string][]) {
    const outfile = join(outDir, `${subject}${outputFileExtension}`);
    await build({
      entryPoints: [entry],
      outfile,
      bundle,
      minify,
      format,
      platform,
      target,
      mainFields,
      alias,
      absWorkingDir: repoRoot,
      logLevel: 'error',
    });
    built[subject] = outfile;
  }
  return built;
};
