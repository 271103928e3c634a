// `npm run openapi`: writes openapi.yaml, the published contract, from the Zod schemas; from it, the
// e2e tests' client types (test/support/plantStoreApi.d.ts) and README.md's route table; from the
// routes' definitions, their handlers and the route list (infra/routes.ts).
// `npm run openapi -- --check`: fails when a committed file differs from what it would write.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './local/paths.ts';
import { CLIENT_TYPES_FILE, clientTypes } from './openapi/clientTypes.ts';
import { OPENAPI_FILE, openApiYaml } from './openapi/document.ts';
import { README_FILE, readmeWithRouteTable } from './openapi/routeTable.ts';
import { generatedRouteFiles } from './routes.ts';

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) {
  console.error(`npm run openapi: unknown argument ${unknown.join(' ')} (usage: [-- --check])`);
  process.exit(2);
}
const check = args.includes('--check');

let stale = false;
const write = (name: string, generated: string) => {
  const file = join(repoRoot, name);
  if (existsSync(file) && readFileSync(file, 'utf8') === generated) {
    console.log(`${name} is up to date`);
  } else if (check) {
    console.error(`${name} is out of date: run npm run openapi and commit it`);
    stale = true;
  } else {
    writeFileSync(file, generated);
    console.log(`wrote ${name}`);
  }
};
// the route list first: the document and the README's table read it
for (const [name, generated] of Object.entries(await generatedRouteFiles())) write(name, generated);
const document = await openApiYaml();
write(OPENAPI_FILE, document);
write(CLIENT_TYPES_FILE, await clientTypes(document));
write(README_FILE, await readmeWithRouteTable());
if (stale) process.exit(1);
