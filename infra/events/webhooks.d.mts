import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import type { EndpointDelivery } from '#lib/endpointDeliveries/store.ts';
import type { WaitingEvent } from '#lib/webhooks/retries.ts';
import type { S3Notification } from '#lib/webhooks/streamFailures.ts';

/** `image` as the SDK writes an item (marshall); the event types name the same JSON their own way. */
export declare const streamInsertEvent: (
  sequenceNumber: string,
  image: Record<string, AttributeValue>,
) => DynamoDBStreamEvent;
/**
 * What a queue's function reads of a message (the retry queue's, the endpoint deliveries', S3's
 * notification of a stream failure).
 */
export declare const retryQueueEvent: (
  messageId: string,
  waiting: WaitingEvent | EndpointDelivery | S3Notification,
) => {
  Records: (Pick<SQSRecord, 'messageId' | 'receiptHandle' | 'body' | 'eventSource'> & {
    attributes: Pick<SQSRecord['attributes'], 'ApproximateReceiveCount'>;
  })[];
};
