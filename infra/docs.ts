// `npm run docs [-- --server URL]`: writes the API reference (infra/docs/reference.ts) with its
// library into docs/reference/, a folder to host as it is for a deployed stage. --server: where
// its "Try it" sends requests (the stage's URL, whose CORS setting must allow the page's origin);
// without it, the servers of openapi.yaml. No token on it: a reader enters one under Authorize.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { referenceAssets, referencePage } from './docs/reference.ts';
import { repoRoot } from './local/paths.ts';

const { values } = parseArgs({ options: { server: { type: 'string' } } });
const folder = join(repoRoot, 'docs', 'reference');
mkdirSync(folder, { recursive: true });
writeFileSync(join(folder, 'index.html'), referencePage({ serverUrl: values.server }));
for (const [name, { file }] of Object.entries(referenceAssets)) {
  copyFileSync(file, join(folder, name));
}
console.log(`API reference written to ${relative(repoRoot, folder)}/ (open index.html)`);
