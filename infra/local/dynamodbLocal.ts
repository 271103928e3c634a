// DynamoDB Local, the official jar, run with `java` directly. The jar ships inside an npm package
// whose own launcher does not work offline, so only its emulator/ folder is fetched and kept.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, untilListening } from './freePort.ts';
import { dynamoDbLocalDir as dir } from './paths.ts';

const DYNAMODB_LOCAL_PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const JAR = 'DynamoDBLocal.jar';

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Fetch the jar once (about 57 MB from the npm registry) into .local/dynamodb-local. */
const ensureDynamoDbLocal = () => {
  if (existsSync(join(dir, JAR))) return;
  log(`Fetching DynamoDB Local (${DYNAMODB_LOCAL_PACKAGE}, about 57 MB, first run only)...`);
  // unpacked next to its destination: a rename across file systems (a tmpfs /tmp) would fail
  mkdirSync(join(dir, '..'), { recursive: true });
  const work = mkdtempSync(join(dir, '..', 'fetching-dynamodb-local-'));
  try {
    const pack = ['pack', DYNAMODB_LOCAL_PACKAGE, '--silent', '--pack-destination', work];
    execFileSync('npm', pack, { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = join(work, readdirSync(work)[0] ?? 'npm pack wrote no file');
    log('Unpacking DynamoDB Local...');
    execFileSync('tar', ['-xzf', tarball, '-C', work, 'package/emulator'], {
      stdio: 'inherit',
    });
    // a leftover without the jar (not ours: ours arrive whole) is in the way
    if (existsSync(dir) && !existsSync(join(dir, JAR)))
      rmSync(dir, { recursive: true, force: true });
    try {
      // moved into place whole, so an interrupted fetch never leaves a half-unpacked jar behind
      renameSync(join(work, 'package', 'emulator'), dir);
    } catch (error) {
      // another process (a parallel test run) finished the same fetch first: use theirs
      if (!existsSync(join(dir, JAR))) throw error;
    }
    log(`DynamoDB Local is in ${dir}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `could not fetch DynamoDB Local with "npm pack ${DYNAMODB_LOCAL_PACKAGE}" (${reason}): ` +
        'check access to the npm registry and try again',
      { cause: error },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

/** `dataDir`: the folder of the database files; in memory when absent. */
export const startDynamoDbLocal = async ({ port, dataDir }: { port: number; dataDir?: string }) => {
  if (spawnSync('java', ['-version']).status !== 0)
    throw new Error(
      'Java 17 or newer is needed to run DynamoDB Local and was not found on PATH: install it ' +
        '(Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17) and try again',
    );
  ensureDynamoDbLocal();
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const java = spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      // it unpacks its SQLite library (a file per start) to the temporary directory: the one
      // TMPDIR names, as every other program here does (Java reads java.io.tmpdir, not TMPDIR)
      `-Djava.io.tmpdir=${tmpdir()}`,
      // and no /tmp/hsperfdata_<user>: the JVM's monitoring data, which nothing here reads;
      // "nothing in the cloud": DynamoDB Local reports usage to AWS unless told not to
      ...['-XX:-UsePerfData', '-jar', join(dir, JAR), '-port', String(port), '-sharedDb'],
      '-disableTelemetry',
      ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  java.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const stop = () => stopChild(java);
  await untilListening('DynamoDB Local', java, port, 30_000, () => stderr).catch(async (error) => {
    await stop();
    throw error;
  });
  return { endpoint: `http://127.0.0.1:${port}`, process: java, stop };
};
