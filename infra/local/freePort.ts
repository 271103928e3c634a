// A free loopback port, for the local stack, its tests and the benchmarks.
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
