// A free loopback port, for the local stack, its tests and the benchmarks; and a local server
// listening on one.
import type { Server } from 'node:http';
import { createServer } from 'node:net';

/** A port that was free a moment ago (the OS picks it), for servers the tests start. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/**
 * `server` listening on 127.0.0.1, on `port` or one the OS picks: the port, and a stop that closes
 * its open connections too, so that a stop never waits on a client's keep-alive.
 */
export const listenLocally = async (server: Server, port = 0) => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
