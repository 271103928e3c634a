// The functions' bundles as a deploy builds them: esbuild with serverless.yml's custom.esbuild
// settings (the one place they are written). Used by the bench, to measure what Lambda would load,
// and by the tests that check what each bundle holds.
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { repoRoot, yamlOf } from '../infra/local/paths.ts';

/** The settings applied below; serverless-esbuild's `exclude` only when empty (none left out). */
const APPLIED = 'bundle minify format platform target mainFields outputFileExtension alias exclude';

const deploySettings = () => {
  const settings = yamlOf('serverless.yml').custom?.esbuild as Record<string, unknown> | undefined;
  if (!settings) throw new Error('serverless.yml has no custom.esbuild settings');
  // a setting this file does not apply would make its bundles differ from a deploy's
  const problems = [
    ...Object.keys(settings)
      .filter((key) => !APPLIED.split(' ').includes(key))
      .map((key) => `custom.esbuild.${key} is not applied`),
    ...(Array.isArray(settings.exclude) && settings.exclude.length > 0
      ? ['custom.esbuild.exclude leaves packages out']
      : []),
  ];
  if (problems.length > 0)
    throw new Error(
      `bench/bundles.ts would build other bundles than a deploy: ${problems.join('; ')}. Teach it the setting, so that the bench and the bundle tests see what Lambda loads.`,
    );
  const { exclude: _, outputFileExtension, ...options } = settings;
  return { options: options as BuildOptions, outputFileExtension: String(outputFileExtension) };
};

const buildOptions = (entry: string): BuildOptions => ({
  entryPoints: [entry],
  ...deploySettings().options,
  absWorkingDir: repoRoot,
  logLevel: 'error',
});

/** Each entry bundled into `outDir`; `readable` keeps the names (no minifying), for a profile. */
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
