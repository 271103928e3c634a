// `npm run webhooks:redrive-stream`: offers each stream record set aside whole again to the
// function that could not handle it, and removes each one it takes. See the usage below.

import { parseArgs } from 'node:util';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SQSClient } from '@aws-sdk/client-sqs';
import { queueLetters, redriveStreamRecords } from './redrive.ts';

const usage = `usage: npm run webhooks:redrive-stream -- --queue-url URL

Offers every stream record in the stream dead-letter queue again to the function that set it
aside (deliverPlantAdded or queueEndpointEvents), as a batch of its own, once its cause is mended.
Each one the function takes is removed; one it hands back stays; one it still cannot handle is set
aside again. Prints one line per record and a summary; exits 1 when any failed.

  --queue-url URL   the stream dead-letter queue (plant-store-<stage>-stream-dead-letters;
                    aws sqs get-queue-url --queue-name ...), read with your AWS credentials, which
                    must allow lambda:InvokeFunction on the stage's functions

Environment: AWS_REGION. For npm start's queue and functions: AWS_ENDPOINT_URL_SQS (the SQS
emulator it prints) and AWS_ENDPOINT_URL_LAMBDA=http://127.0.0.1:<LAMBDA_PORT>.`;

const fail = (message: string): never => {
  process.stderr.write(`webhooks:redrive-stream: ${message}\n\n${usage}\n`);
  process.exit(2);
};

const values = (() => {
  try {
    return parseArgs({
      options: { 'queue-url': { type: 'string' }, help: { type: 'boolean' } },
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
})();
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const queueUrl = values['queue-url'] ?? fail('--queue-url is required');
const region = process.env.AWS_REGION ?? 'us-east-1';
const lambda = new LambdaClient({ region });

const report = await redriveStreamRecords(
  queueLetters(new SQSClient({ region }), queueUrl),
  async (FunctionName, event) => {
    const { Payload, FunctionError } = await lambda.send(
      new InvokeCommand({ FunctionName, Payload: JSON.stringify(event) }),
    );
    const text = Buffer.from(Payload ?? []).toString();
    if (FunctionError) throw new Error(`the function failed: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  },
  (line) => process.stderr.write(`${line}\n`),
);
process.stdout.write(
  `webhooks:redrive-stream: ${report.delivered} taken, ${report.failed} failed${report.failed ? ' (still kept: run again once the cause is mended)' : ''}\n`,
);
process.exit(report.failed > 0 ? 1 : 0);
