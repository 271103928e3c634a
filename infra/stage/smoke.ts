// `npm run smoke`: a deployed stage checked over HTTP as a client would, as the usage below says.
import { parseArgs } from 'node:util';
import { runSmoke } from './smokeChecks.ts';
import { stackOutputs } from './stackOutputs.ts';
import { stackName, stageRegion } from './stageData.ts';

const usage = `usage: npm run smoke -- (--stage <stage> [--region <region>] | --url <url>) [--token <jwt>]
                      [--receiver <https url>] [--origin <origin>] [--wait <seconds>] [--allow-http]

Checks a deployed stage as a client would, one line per check; exits 0 only when every check passed.

Without a token: GET /plants answers 401 with the Error body, an unknown path 404, and a CORS
preflight as the stage's corsAllowedOrigins say. With a token, also: a plant of its own created,
read, listed (and by its tag), patched with If-Match, deleted and gone. With --receiver too: an
endpoint registered to it, pinged, and a plant added, each answered 2xx by the receiver within
--wait. What it made is deleted at the end, even when a check failed; it says what it leaves.

  --stage <stage>     the stage: its URL, version and commit are the outputs HttpApiUrl, Version
                      and Commit of the stack plant-store-<stage>, read with your AWS credentials
  --region <region>   the stage's region (default: AWS_REGION, else us-east-1)
  --url <url>         the API's URL instead (npx sls info --stage <stage> shows it): no AWS call
  --token <jwt>       a test caller's token (default: PLANT_STORE_TOKEN), with the stage's read and
                      write scopes when it sets them
  --receiver <url>    a public https receiver of yours that answers 2xx (a stage refuses private
                      addresses)
  --origin <origin>   an origin of the stage's corsAllowedOrigins: its preflight must be allowed;
                      without it, an origin no stage lists (https://smoke.invalid) must not be
  --wait <seconds>    how long the receiver's answers may take (default 60)
  --allow-http        let the API's URL and the receiver be plain http: for a local run (npm start)`;

const fail = (message: string, code = 2): never => {
  process.stderr.write(`smoke: ${message}\n`);
  return process.exit(code);
};

const options = (() => {
  try {
    const { values } = parseArgs({
      options: {
        stage: { type: 'string' },
        region: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        receiver: { type: 'string' },
        origin: { type: 'string' },
        wait: { type: 'string', default: '60' },
        'allow-http': { type: 'boolean', default: false },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    if (!values.stage && !values.url) throw new Error('give --stage <stage> or --url <url>');
    const waitSeconds = Number(values.wait);
    if (!/^\d+$/.test(values.wait) || waitSeconds < 1) {
      throw new Error(`--wait must be a whole number of seconds, at least 1, got "${values.wait}"`);
    }
    for (const flag of ['url', 'receiver', 'origin'] as const) {
      const value = values[flag];
      if (value !== undefined && !/^https?:$/.test(URL.parse(value)?.protocol ?? '')) {
        throw new Error(`--${flag} must be an http(s) URL`);
      }
    }
    return { ...values, waitSeconds };
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${usage}`);
  }
})();

const region = stageRegion(options.region);
const { url, version, commit } = options.url
  ? { url: options.url, version: undefined, commit: undefined }
  : await stackOutputs(options.stage ?? '', region).catch((e) => fail(e.message, 1));
const baseUrl = url.replace(/\/+$/, '');
// the token goes to the API and an endpoint's secret comes back: https only, but for npm start
if (!options['allow-http'] && [url, options.receiver].some((u) => /^http:/i.test(u ?? ''))) {
  fail("the API's and the receiver's URLs must be https: pass --allow-http for a local run");
}

// Ctrl-C stops the checks, not the clean-up; a second one stops everything
const interrupted = new AbortController();
process.once('SIGINT', () => {
  process.stderr.write('smoke: stopping; deleting what it made (Ctrl-C again to leave it)\n');
  interrupted.abort();
});

const where = options.url
  ? `${baseUrl}: version and commit not known (--url reads no stack; --stage does)`
  : `${baseUrl} (stack ${stackName(options.stage ?? '')}, ${region}): ${version ? `version ${version}, commit ${commit}` : 'no version recorded: deployed by 1.0.0 or earlier (docs/upgrading.md)'}`;
process.stdout.write(`Smoke test of ${where}\n`);
const result = await runSmoke({
  baseUrl,
  token: options.token ?? process.env.PLANT_STORE_TOKEN,
  receiver: options.receiver,
  origin: options.origin,
  waitSeconds: options.waitSeconds,
  print: (line) => process.stdout.write(`${line}\n`),
  progress: (line) => process.stderr.write(`${line}\n`),
  interrupted: interrupted.signal,
});

const skipped = result.skipped.length > 0 ? `, skipped: ${result.skipped.join(', ')}` : '';
const verdict = result.interrupted
  ? 'interrupted'
  : result.failed === 0
    ? 'all passed'
    : 'FAILED: see the ✗ lines for what to do';
process.stdout.write(`${result.passed} passed, ${result.failed} failed${skipped}: ${verdict}\n`);
process.exit(result.failed === 0 && !result.interrupted ? 0 : 1);
