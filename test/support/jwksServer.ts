// An identity provider's key endpoint on this machine, for the tests and the bench: serves a JWKS
// over HTTP and counts the fetches.
import { createServer } from 'node:http';
import type { JSONWebKeySet } from 'jose';
import { listenLocally } from '../../infra/local/freePort.ts';

export interface JwksServer {
  url: string;
  /** How many times the key set was fetched. */
  fetches: () => number;
  /** Serve these keys from now on (a key rotation). */
  serve: (jwks: JSONWebKeySet) => void;
  stop: () => Promise<void>;
}

export const startJwksServer = async (jwks: JSONWebKeySet): Promise<JwksServer> => {
  let keys = jwks;
  let fetches = 0;
  const server = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') {
      response.writeHead(404).end();
      return;
    }
    fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(keys));
  });
  const { port, stop } = await listenLocally(server);
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    fetches: () => fetches,
    serve: (next) => {
      keys = next;
    },
    stop,
  };
};
