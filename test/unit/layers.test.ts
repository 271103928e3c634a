// lib/'s layers: routes → domain → plumbing. A file imports from its own layer or one below, never
// from above, so that the plumbing can be read, tested and reused without the domain it serves.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../infra/local/paths.ts';

/** Each folder (or file) of lib/ by its layer: the higher imports the lower. */
const LAYERS: Record<string, number> = {
  routes: 2,
  plants: 1,
  endpoints: 1,
  endpointDeliveries: 1,
  operatorWebhook: 1,
  http: 0,
  dynamo: 0,
  webhooks: 0,
  ssrf: 0,
  auth: 0,
  config: 0,
  'telemetry.ts': 0,
  'xray.ts': 0,
};
const NAMES = ['plumbing', 'domain', 'routes'];

const lib = join(repoRoot, 'lib');
const files = readdirSync(lib, { recursive: true, encoding: 'utf8' }).filter((file) =>
  /\.m?ts$/.test(file),
);
/** The lib/ file an import names (through #lib or a relative path), or none outside lib/. */
const importedFile = (file: string, specifier: string) => {
  if (specifier.startsWith('#lib/')) return specifier.slice('#lib/'.length);
  if (specifier.startsWith('.')) return relative(lib, join(lib, dirname(file), specifier));
  return undefined;
};
/** Its layer's number; -1 for a folder with none. */
const layerOf = (file: string) => LAYERS[file.split('/')[0] ?? ''] ?? -1;

describe("lib/'s layers", () => {
  it('every folder of lib/ has its layer', () => {
    expect(files.filter((file) => layerOf(file) === -1)).toEqual([]);
  });

  it('nothing imports upward', () => {
    const upward = files.flatMap((file) =>
      [...readFileSync(join(lib, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)]
        .map(([, specifier = '']) => importedFile(file, specifier) ?? file)
        .filter((imported) => layerOf(imported) > layerOf(file))
        .map((imported) => {
          const [from, to] = [NAMES[layerOf(file)], NAMES[layerOf(imported)]];
          return `${file} (${from}) imports ${imported} (${to})`;
        }),
    );
    expect(upward).toEqual([]);
  });
});
