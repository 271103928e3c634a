// Vitest global setup, first of every project's: one folder for all that a test run puts in the
// temporary directory (the tests' own folders, their servers', DynamoDB Local's native library,
// Chromium's profile), named by TMPDIR before any worker or server starts and removed with all
// it holds at the end, so that a run leaves nothing in /tmp, not even what a failed test left.
// Each project lists it, as a project does not inherit the root's global setup, which would run
// after the projects' own (after DynamoDB Local started): the first to run makes the folder, the
// others find it made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's folder, once made: set beside TMPDIR, which alone could be anyone's. */
const RUN_TMPDIR = 'PLANT_STORE_RUN_TMPDIR';

export default function setup() {
  if (process.env[RUN_TMPDIR] !== undefined && process.env[RUN_TMPDIR] === tmpdir()) return;
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-test-run-'));
  // read by os.tmpdir() at each call, and passed on to every worker and process started from now
  process.env.TMPDIR = dir;
  process.env[RUN_TMPDIR] = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    delete process.env[RUN_TMPDIR];
  };
}
