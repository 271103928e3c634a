// `npm run webhooks:redrive`: the dead-letter queues' messages offered again, as the usage below says.
import { parseArgs } from 'node:util';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig } from '#lib/config/load.ts';
import { receiverSettings } from '#lib/config/webhook.ts';
import { deliveryTarget } from '#lib/operatorWebhook/dependencies.ts';
import { localDataDir, runningEnv } from '../local/paths.ts';
import { lambdaInvoker, queueLetters, redrive, redriveStreamRecords } from './redrive.ts';

const usage = `usage: npm run webhooks:redrive -- [--stream] [--queue-url URL]

Delivers every dead letter of the "plant added" webhook again: the same webhook-id and body,
signed anew with the current secret, to WEBHOOK_URL; each one that gets a 2xx is removed.

With --stream, offers every stream record set aside whole again to the function that set it aside
(deliverPlantAdded or queueEndpointEvents), as a batch of its own, once its cause is mended; each
one it takes is removed (one it still cannot handle is set aside again).

What fails stays for a later run. Prints one line each and a summary; exits 1 when any failed.

  --stream          the stream dead-letter queue, instead of the webhook's dead letters
  --queue-url URL   a deployed stage's queue (the stack's output WebhookDeadLetterQueueUrl, with
                    --stream StreamDeadLetterQueueUrl: npx sls info --verbose --stage <stage>),
                    read with your AWS credentials, which with --stream must
                    allow lambda:InvokeFunction on the stage's functions. Without it: the queue,
                    receiver and functions of the npm start running on PLANTS_LOCAL_DATA
                    (.local/data)

Environment with --queue-url: AWS_REGION; WEBHOOK_URL, and WEBHOOK_SECRET (whsec_ secrets) or
WEBHOOK_SECRET_PARAMETER (the SSM parameter that holds them).`;

/** The options, the queue and (but with --stream) the receiver; exits with the usage on a mistake. */
const { queueUrl, receiver } = (() => {
  try {
    const { values } = parseArgs({
      options: {
        'queue-url': { type: 'string' },
        stream: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    let queueUrl = values['queue-url'];
    if (!queueUrl) {
      const dataDir = localDataDir();
      const running = runningEnv(dataDir);
      if (!running)
        throw new Error(
          `no --queue-url, and no npm start is running on ${dataDir}: start it in another terminal (npm start), with the same PLANTS_LOCAL_DATA if you set one, or give a deployed stage's queue`,
        );
      // its queue, receiver, secret, credentials and endpoints (SQS, Lambda); the environment wins
      for (const [name, value] of Object.entries(running)) process.env[name] ??= value;
      queueUrl =
        running[values.stream ? 'STREAM_DEAD_LETTER_QUEUE_URL' : 'WEBHOOK_DEAD_LETTER_QUEUE_URL'];
    }
    // the dead-letter queue is read here, not written: only the receiver and its secret matter
    const receiver = values.stream
      ? undefined
      : loadConfig(process.env, { receiver: receiverSettings }).receiver;
    return { queueUrl: queueUrl ?? '', receiver };
  } catch (error) {
    process.stderr.write(`webhooks:redrive: ${(error as Error).message}\n\n${usage}\n`);
    return process.exit(2);
  }
})();

const region = process.env.AWS_REGION ?? 'us-east-1';
const letters = queueLetters(new SQSClient({ region }), queueUrl);
const progress = (line: string) => process.stderr.write(`${line}\n`);

const report = receiver
  ? await redrive(letters, deliveryTarget(receiver), progress)
  : await redriveStreamRecords(letters, lambdaInvoker(new LambdaClient({ region })), progress);
const [taken, until] = receiver
  ? ['delivered', 'the receiver answers 2xx']
  : ['taken', 'the cause is mended'];
process.stdout.write(
  `webhooks:redrive: ${report.delivered} ${taken}, ${report.failed} failed${report.failed ? ` (still kept: run again once ${until})` : ''}\n`,
);
process.exit(report.failed > 0 ? 1 : 0);
