// Builds the shipped handlers and the baselines with the esbuild settings of serverless.yml
// (custom.esbuild), so that both are measured as Lambda would load them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
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

/** Bundles each entry into `outDir` as `<name>.mjs`; returns each bundle's path. */
export const buildEntries = async <Name extends string>(
  outDir: string,
  entryFiles: Record<Name, string>,
): Promise<Record<Name, string>> => {
  const { bundle, minify, format, platform, target, mainFields, outputFileExtension, alias } =
    deploySettings();
  const built = {} as Record<Name, string>;
  for (const [name, entry] of Object.entries(entryFiles) as [Name, string][]) {
    const outfile = join(outDir, `${name}${outputFileExtension}`);
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
    built[name] = outfile;
  }
  return built;
};
