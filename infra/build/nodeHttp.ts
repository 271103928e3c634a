// Stands in for node:http in the bundle (serverless.yml custom.esbuild alias). An ES module import
// of node:http makes Node settle every export of it, the lazy ones too, which loads undici, http2
// and worker_threads: about 14 ms of cold start (npm run bench) for nothing the function uses.
// require() hands over the same module without that.
import { createRequire } from 'node:module';

const http: typeof import('node:http') = createRequire(import.meta.url)('node:http');

export default http;
// the names the bundled packages import; a new one fails the build, never the function
export const { Agent, STATUS_CODES, createServer, get, globalAgent, request } = http;
