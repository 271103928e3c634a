// The events of callers' own endpoints, bare: each stream record's plant unmarshalled and its event
// made (type, id, body), the owner's endpoints read (one Query), and a delivery to each that is
// enabled and takes the type sent to the endpoint-deliveries queue (SendMessageBatch within SQS's
// limits, bench/baseline/deliveries.ts); a record whose endpoints or queue failed is reported for
// the stream to offer again.
import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { callerPartition, ENDPOINT_PREFIX } from '#lib/endpoints/keys.ts';
import { sendDeliveries } from './deliveries.ts';
import { client, webhooksTable } from './store.ts';

const TYPES: Record<string, string> = {
  INSERT: 'plant.added',
  MODIFY: 'plant.updated',
  REMOVE: 'plant.deleted',
};

export const handler = async (event: DynamoDBStreamEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  await Promise.all(
    event.Records.map(async ({ eventName = '', dynamodb: change }) => {
      const type = TYPES[eventName];
      const image = type === 'plant.deleted' ? change?.OldImage : change?.NewImage;
      if (!type || !image) return;
      const plant = unmarshall(image as Record<string, AttributeValue>);
      const { id, name, tag, createdAt, createdBy: owner, version = 1 } = plant;
      const digest = createHash('sha256')
        .update(`${type}\n${id}\n${createdAt}\n${version}`)
        .digest('base64url');
      const webhookId = `msg_${digest.slice(0, 32)}`;
      const at = new Date((change?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000);
      const data =
        type === 'plant.deleted' ? { id } : tag === undefined ? { id, name } : { id, name, tag };
      const body = JSON.stringify({ type, timestamp: at.toISOString(), data });
      try {
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: webhooksTable,
            KeyConditionExpression: 'pk = :caller AND begins_with(sk, :endpoint)',
            ExpressionAttributeValues: {
              ':caller': callerPartition(owner),
              ':endpoint': ENDPOINT_PREFIX,
            },
            ConsistentRead: true,
          }),
        );
        const deliveries = (Items as { sk: string; disabled?: boolean; events: string[] }[])
          .filter((endpoint) => !endpoint.disabled && endpoint.events.includes(type))
          .map(({ sk }) => ({
            owner,
            endpointId: sk.slice(ENDPOINT_PREFIX.length),
            webhookId,
            type,
            body,
            attempts: 0,
            dueAt: Date.now(),
          }));
        if (deliveries.length > 0) await sendDeliveries(deliveries);
      } catch {
        batchItemFailures.push({ itemIdentifier: change?.SequenceNumber ?? '' });
      }
    }),
  );
  return { batchItemFailures };
};
