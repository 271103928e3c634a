// Express's dependencies require Node's built-ins, and an ESM bundle has no `require`: what
// esbuild's documented createRequire banner gives, set before they load (serverless.yml sets none).
import { createRequire } from 'node:module';

(globalThis as { require?: NodeJS.Require }).require = createRequire(import.meta.url);
