// The "plant added" webhook, bare: each insert's new image unmarshalled, signed with node:crypto
// as Standard Webhooks says (with a KeyObject made once, as ours), POSTed with a timeout; a failure sent to the dead-letter queue, else
// reported for the stream to retry. The secret from SSM when a parameter is named. The same SDK
// clients as ours; no Middy, no Powertools, no retries of its own.
import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';

const env = process.env;
const url = env.WEBHOOK_URL ?? '';
const queueUrl = env.WEBHOOK_DEAD_LETTER_QUEUE_URL;
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

export const handler = async (event: DynamoDBStreamEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      const item = unmarshall((record.dynamodb?.NewImage ?? {}) as Record<string, AttributeValue>);
      const body = JSON.stringify(
        item.tag === undefined
          ? { id: item.id, name: item.name }
          : { id: item.id, name: item.name, tag: item.tag },
      );
      const id = `msg_${createHash('sha256').update(`${item.id}\n${item.createdAt}`).digest('base64url').slice(0, 32)}`;
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', await signingKey())
        .update(`${id}.${timestamp}.${body}`)
        .digest('base64');
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': `v1,${signature}`,
          },
          body,
          signal: AbortSignal.timeout(5000),
        });
        await response.body?.cancel();
        if (!response.ok) throw new Error(String(response.status));
      } catch (error) {
        try {
          if (!queueUrl) throw error;
          await sqs.send(
            new SendMessageCommand({
              QueueUrl: queueUrl,
              MessageBody: JSON.stringify({ webhookId: id, body, lastError: String(error) }),
            }),
          );
        } catch {
          batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
        }
      }
    }),
  );
  return { batchItemFailures };
};
