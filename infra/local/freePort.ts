// Ports on this machine: a free one, a setting's, whether one is taken; a child's awaited, stopped.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenLocally } from './listen.ts';

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

export interface AwaitedServer {
  /** Who listens, for the messages: "DynamoDB Local". */
  name: string;
  child: ChildProcess;
  port: number;
  timeoutMs: number;
  /** What the child said so far, for a message that tells why it did not listen. */
  output: () => string;
}

/** Resolves once `child` accepts connections on `port`; throws when it exits first or takes too long. */
export const untilListening = async ({ name, child, port, timeoutMs, output }: AwaitedServer) => {
  const deadline = Date.now() + timeoutMs;
  const said = () => output().trim() || 'no output';
  while (!(await portAccepts(port))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${name} exited at start (${child.exitCode === null ? child.signalCode : `code ${child.exitCode}`}): ${said()}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`${name} did not open port ${port} within ${timeoutMs / 1000} s: ${said()}`);
    }
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

/** The port a setting names (`fallback` when unset); throws naming the setting when it is none. */
export const portSetting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    throw new Error(`${name} must be a port number, got "${process.env[name]}"`);
  return value;
};

/** Throws, saying what to do, when `port` is taken. */
export const assertPortFree = async (port: number, setting: string) => {
  const probe = await listenLocally(createServer(), port).catch((cause: unknown) => {
    throw new Error(
      `port ${port} is already in use (is another npm start running?): stop what uses it, or set ${setting} to a free port`,
      { cause },
    );
  });
  await probe.stop();
};
