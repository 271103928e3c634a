// What both bare webhook functions share, and nothing more than hand-written ones would: the
// secret (from SSM when a parameter is named) as a KeyObject made once, as ours; one signed POST
// (bench/baseline/signature.ts) with a timeout; the same SQS client. No Middy, no Powertools, no retry schedule of its own.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { signedHeaders } from './signature.ts';

const env = process.env;
const url = env.WEBHOOK_URL ?? '';
const sqs = new SQSClient({ region: env.AWS_REGION ?? 'us-east-1' });
const ssm = new SSMClient({ region: env.AWS_REGION ?? 'us-east-1' });
let key: KeyObject | undefined;
const signingKey = async (): Promise<KeyObject> => {
  if (key) return key;
  const secret = env.WEBHOOK_SECRET_PARAMETER
    ? (
        await ssm.send(
          new GetParameterCommand({ Name: env.WEBHOOK_SECRET_PARAMETER, WithDecryption: true }),
        )
      ).Parameter?.Value
    : env.WEBHOOK_SECRET;
  const loaded = createSecretKey(Buffer.from((secret ?? '').replace(/^whsec_/, ''), 'base64'));
  key = loaded;
  return loaded;
};

/** POSTs `body` signed as Standard Webhooks says; throws unless the receiver answered 2xx. */
export const post = async (id: string, body: string) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: signedHeaders([await signingKey()], id, body),
    body,
    signal: AbortSignal.timeout(5000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(String(response.status));
};

/** Sends `message` to the queue; throws when there is none (the source then offers it again). */
export const send = async (queueUrl: string | undefined, message: object) => {
  if (!queueUrl) throw new Error('no queue');
  await sqs.send(
    new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }),
  );
};
