// The real local stack, started as `npm start` starts it (infra/local/start.ts: DynamoDB Local,
// serverless-offline running the bundled handler), on free ports with its own data folder.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../infra/local/freePort.ts';
import { repoRoot } from '../../infra/local/paths.ts';

const run = promisify(execFile);

export interface LocalService {
  baseUrl: string;
  /** DynamoDB Local of this stack, for reading its tables (plant-store-local-plants, ...) back. */
  dynamodbEndpoint: string;
  dataDir: string;
  /** `npm run token` for this service's keys, with the command's own flags. */
  token: (...args: string[]) => Promise<string>;
  /** Everything npm start printed so far. */
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartResult {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** This process's environment without the function settings that the test runner sets for itself. */
const inheritedEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(AUTH_|PLANTS_|DYNAMODB_|WEBHOOKS?_)/.test(name),
    ),
  );

/**
 * Spawn the start script in its own process group, so that stopping it stops java and sls too;
 * `args` are its flags (`--json`: the functions' JSON log lines whole, as deployed).
 */
export const spawnStart = (env: NodeJS.ProcessEnv, args: string[] = []): StartResult => {
  const child = spawn(process.execPath, [join(repoRoot, 'infra', 'local', 'start.ts'), ...args], {
    cwd: repoRoot,
    env: { ...inheritedEnv(), ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
};

export const startLocalService = async (
  dataDir = mkdtempSync(join(tmpdir(), 'plant-store-e2e-')),
  /** More settings for the start script, e.g. AUTH_JWKS_URL for a test identity provider. */
  extraEnv: NodeJS.ProcessEnv = {},
  /** Flags of `npm start`, e.g. `--json` for a test that reads why a function failed. */
  args: string[] = [],
): Promise<LocalService> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePorts(dataDir, extraEnv, args);
    } catch (error) {
      // a port free a moment before, taken meanwhile by another test's socket (none can be held
      // for npm start): again on others, unless the test chose the ports
      const chosen = ['PORT', 'LAMBDA_PORT', 'DYNAMODB_PORT'].some((name) => name in extraEnv);
      if (attempt === 3 || chosen || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
};

const startOnFreePorts = async (
  dataDir: string,
  extraEnv: NodeJS.ProcessEnv,
  args: string[],
): Promise<LocalService> => {
  const [httpPort, lambdaPort, dynamoPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    PORT: String(httpPort),
    LAMBDA_PORT: String(lambdaPort),
    DYNAMODB_PORT: String(dynamoPort),
    PLANTS_LOCAL_DATA: dataDir,
    ...extraEnv,
  };
  const started = spawnStart(env, args);
  const stop = async () => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) return;
    // the whole group, as Ctrl-C in a terminal would
    process.kill(-(started.child.pid ?? 0), 'SIGINT');
    await started.exited;
  };

  const deadline = Date.now() + 150_000;
  while (!started.output().includes('Plant store ready at')) {
    if (started.child.exitCode !== null) {
      throw new Error(
        `npm start exited (code ${started.child.exitCode}) before it was ready:\n${started.output()}`,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm start was not ready within 150 s:\n${started.output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    baseUrl: `http://127.0.0.1:${httpPort}`,
    dynamodbEndpoint: `http://127.0.0.1:${dynamoPort}`,
    dataDir,
    token: async (...args) => {
      const { stdout } = await run(
        process.execPath,
        [join(repoRoot, 'infra', 'local', 'token.ts'), ...args],
        {
          cwd: repoRoot,
          env: { ...inheritedEnv(), ...env },
        },
      );
      return stdout;
    },
    output: started.output,
    stop,
  };
};

/** A request to the local service with `token` as its bearer, and `body` as JSON when given. */
export const sendAs = (
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) =>
  fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
