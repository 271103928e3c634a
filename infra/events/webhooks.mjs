// The webhook functions' events as event source mappings hand them, one record each: a stream
// batch, a queue batch. Plain JavaScript, so that bench/probe.mjs loads no TypeScript.

/** The stream record of a plant's insert: `image`, the item as DynamoDB stores it. */
export const streamInsertEvent = (sequenceNumber, image) => ({
  Records: [
    {
      eventID: sequenceNumber,
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: { SequenceNumber: sequenceNumber, NewImage: image },
    },
  ],
});

// A queue message: `waiting`, an event waiting for its next attempt (lib/webhooks/retries.ts), a
// delivery to a caller's endpoint (lib/endpointDeliveries/store.ts), or what Lambda tells the
// stream's on-failure destination of a batch given up (lib/webhooks/streamFailures.ts).
export const retryQueueEvent = (messageId, waiting) => ({
  Records: [
    {
      messageId,
      receiptHandle: `receipt-${messageId}`,
      body: JSON.stringify(waiting),
      // an invocation record counts no attempts: received once
      attributes: { ApproximateReceiveCount: String(waiting.attempts ?? 1) },
      eventSource: 'aws:sqs',
    },
  ],
});
