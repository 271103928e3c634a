// Ports on this machine: a server listening here only, a free port, a setting's (and free); a
// child's awaited, stopped.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

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

/** A port that was free a moment ago (the OS picks it), for servers the tests start. */
export const freePort = async () => {
  const { port, stop } = await listenLocally(createServer());
  await stop();
  return port;
};

const portAccepts = (port: number) => {
  const socket = connect({ host: '127.0.0.1', port });
  const connected = once(socket, 'connect').then(() => true);
  return connected.catch(() => false).finally(() => socket.destroy());
};

/** Resolves once `child` (`name` in the messages) accepts connections on `port`; throws when it
 * exits first or takes too long, with `output()`: what it said so far. */
export const untilListening = async (
  name: string,
  child: ChildProcess,
  port: number,
  timeoutMs: number,
  output: () => string,
) => {
  const deadline = Date.now() + timeoutMs;
  const said = () => output().trim() || 'no output';
  while (!(await portAccepts(port))) {
    const ended = child.exitCode === null ? child.signalCode : `code ${child.exitCode}`;
    if (ended !== null) throw new Error(`${name} exited at start (${ended}): ${said()}`);
    if (Date.now() > deadline)
      throw new Error(`${name} did not open port ${port} within ${timeoutMs / 1000} s: ${said()}`);
    await sleep(100);
  }
};

/** Stops `child` (SIGKILL after 5 s: one that ignores SIGTERM keeps no port), once it exited. */
export const stopChild = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  await exited;
};

/** The port a setting names (`fallback` when unset); throws naming the setting when it is none,
 * and saying what to do when it is taken. */
export const portSetting = async (name: string, fallback: number) => {
  const port = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`${name} must be a port number, got "${process.env[name]}"`);
  const probe = await listenLocally(createServer(), port).catch((cause: unknown) => {
    throw new Error(
      `port ${port} is already in use (is another npm start running?): stop what uses it, or set ${name} to a free port`,
      { cause },
    );
  });
  await probe.stop();
  return port;
};
