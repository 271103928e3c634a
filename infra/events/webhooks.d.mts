import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent, SQSRecord } from 'aws-lambda';
import type { WaitingEvent } from '#lib/webhooks/retries.ts';

/** `image` as the SDK writes an item (marshall); the event types name the same JSON their own way. */
export declare const streamInsertEvent: (
  sequenceNumber: string,
  image: Record<string, AttributeValue>,
) => DynamoDBStreamEvent;
/** What the retry function reads of a message, and its id and receipt handle. */
export declare const retryQueueEvent: (
  messageId: string,
  waiting: WaitingEvent,
) => {
  Records: (Pick<SQSRecord, 'messageId' | 'receiptHandle' | 'body' | 'eventSource'> & {
    attributes: Pick<SQSRecord['attributes'], 'ApproximateReceiveCount'>;
  })[];
};
