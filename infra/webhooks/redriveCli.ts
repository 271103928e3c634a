// `npm run webhooks:redrive`: delivers the kept "plant added" events again, each with its own
// webhook-id, and removes each one that arrives. See the usage below.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig } from '#lib/config/load.ts';
import { receiverSettings } from '#lib/config/webhook.ts';
import { deliveryTarget } from '#lib/webhooks/dependencies.ts';
import { localDataDir } from '../local/paths.ts';
import { folderLetters, queueLetters, redrive } from './redrive.ts';

const usage = `usage: npm run webhooks:redrive -- [--queue-url URL | --dir FOLDER]

Delivers every dead letter of the "plant added" webhook again: the same webhook-id and body,
signed anew with the current secret, to WEBHOOK_URL. Each one that gets a 2xx is removed; each
one that fails stays for a later run. Prints one line per event and a summary; exits 1 when any
failed.

  --queue-url URL   a deployed stage's dead-letter queue (plant-store-<stage>-webhook-dead-letters;
                    aws sqs get-queue-url --queue-name ...), read with your AWS credentials
  --dir FOLDER      a folder of dead letters (default: the local run's,
                    .local/data/webhook-dead-letters)

Environment: WEBHOOK_URL, and WEBHOOK_SECRET (whsec_ secrets) or WEBHOOK_SECRET_PARAMETER (the
SSM parameter that holds them); AWS_REGION for the queue and the parameter.`;

const fail = (message: string): never => {
  process.stderr.write(`webhooks:redrive: ${message}\n\n${usage}\n`);
  process.exit(2);
};

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        'queue-url': { type: 'string' },
        dir: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
if (values['queue-url'] && values.dir) fail('give --queue-url or --dir, not both');

const settings = (() => {
  try {
    // the dead letters are read here, not written: only the receiver and its secret matter
    return loadConfig(process.env, { receiver: receiverSettings }).receiver;
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const target = deliveryTarget(settings);
const queueUrl = values['queue-url'];
const letters = queueUrl
  ? queueLetters(new SQSClient({ region: settings.region }), queueUrl)
  : folderLetters(values.dir ?? join(localDataDir(), 'webhook-dead-letters'));

const report = await redrive(letters, target, (line) => process.stderr.write(`${line}\n`));
process.stdout.write(
  `webhooks:redrive: ${report.delivered} delivered, ${report.failed} failed${report.failed ? ' (still kept: run again once the receiver answers 2xx)' : ''}\n`,
);
process.exit(report.failed > 0 ? 1 : 0);
