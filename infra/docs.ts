// `npm run docs [-- --server URL]`: the API reference and its library in docs/reference/, to host as
// it is. --server: where "Try it" sends requests (CORS must allow the page), else openapi.yaml's.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { referenceAssets, referencePage } from './docs/reference.ts';
import { repoRoot } from './local/paths.ts';

const { values } = parseArgs({ options: { server: { type: 'string' } } });
const folder = join(repoRoot, 'docs', 'reference');
mkdirSync(folder, { recursive: true });
writeFileSync(join(folder, 'index.html'), referencePage({ serverUrl: values.server }));
for (const [name, { file }] of Object.entries(referenceAssets))
  copyFileSync(file, join(folder, name));
console.log(`API reference written to ${relative(repoRoot, folder)}/ (open index.html)`);
