// How a local server (webhook receiver, front server, tests' JWKS server) listens here only.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `server` on 127.0.0.1:`port` (or one the OS picks); its stop never waits on a keep-alive. */
export const listenLocally = async (server: Server, port = 0) => {
  // rejects on an error before it listens; from then on an error is the server's own
  await once(server.listen(port, '127.0.0.1'), 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
