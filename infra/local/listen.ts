// How a local server (the webhook receiver, the front server, the JWKS server of the tests and
// the bench) listens on this machine alone, and stops.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * `server` listening on 127.0.0.1, on `port` or one the OS picks: the port, and a stop that closes
 * its open connections too, so that a stop never waits on a client's keep-alive.
 */
export const listenLocally = async (server: Server, port = 0) => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      // from now on an error is the server's own, not a failure to listen
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
