// `npm run openapi`: writes openapi.yaml, the published contract, from the Zod schemas.
// `npm run openapi -- --check`: fails when the committed openapi.yaml differs from what it would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './local/paths.ts';
import { OPENAPI_FILE, openApiYaml } from './openapi/document.ts';

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) {
  console.error(`npm run openapi: unknown argument ${unknown.join(' ')} (usage: [-- --check])`);
  process.exit(2);
}

const file = join(repoRoot, OPENAPI_FILE);
const generated = openApiYaml();
let committed: string | undefined;
try {
  committed = readFileSync(file, 'utf8');
} catch {
  committed = undefined;
}

if (args.includes('--check')) {
  if (committed !== generated) {
    console.error(`${OPENAPI_FILE} is out of date: run npm run openapi and commit it`);
    process.exit(1);
  }
  console.log(`${OPENAPI_FILE} is up to date`);
} else if (committed === generated) {
  console.log(`${OPENAPI_FILE} is up to date`);
} else {
  writeFileSync(file, generated);
  console.log(`wrote ${OPENAPI_FILE}`);
}
