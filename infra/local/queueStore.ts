// The local SQS stand-in's queues (infra/local/sqsServer.ts serves them): each message is a file
// of its queue's folder, written whole (.tmp, then renamed), so a restart keeps it with its delay
// or visibility deadline and its receive count. As SQS: a received message is hidden for the
// visibility timeout and, not deleted by then, received again (at least once); one received more
// than the redrive policy's maxReceiveCount moves to the dead-letter queue on the next receive.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface QueueSettings {
  /** The visibility timeout of a receive that names none (SQS's default: 30). */
  visibilityTimeoutSeconds?: number;
  /** The redrive policy: a message received more than maxReceiveCount times moves there. */
  redrive?: { deadLetterQueue: string; maxReceiveCount: number };
}

/** An SQS error: its type (a shape name: QueueDoesNotExist, ...) is the SDK's error name. */
export class SqsError extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

export interface StoredMessage {
  messageId: string;
  body: string;
  sentTimestamp: number;
  firstReceiveTimestamp?: number;
  receiveCount: number;
  /** When it can be received (epoch ms): the end of its delay or of its visibility timeout. */
  visibleAt: number;
  /** The latest receive's token: a receipt handle with another one is stale. */
  receipt?: string;
  /** Set in a dead-letter queue: the queue it came from. */
  deadLetterQueueSourceArn?: string;
}

export interface Queue {
  arn: string;
  send: (body: string, delaySeconds: number) => StoredMessage;
  receive: (
    max: number,
    visibilitySeconds: number | undefined,
  ) => { message: StoredMessage; receiptHandle: string }[];
  delete: (receiptHandle: string) => void;
  changeVisibility: (receiptHandle: string, seconds: number) => void;
  counts: () => { visible: number; inFlight: number; delayed: number };
  settings: QueueSettings;
}

/** A queue as its redrive source sees it: one that takes a message as it is. */
type StoredQueue = Queue & { keep: (message: StoredMessage) => void };

export const md5Hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** A receipt handle names the message and the receive it came from. */
const parseHandle = (receiptHandle: string) => {
  const [messageId, receipt, extra] = receiptHandle.split('.');
  if (!messageId || !receipt || extra !== undefined)
    throw new SqsError(
      'ReceiptHandleIsInvalid',
      `The receipt handle "${receiptHandle}" is not valid.`,
    );
  return { messageId, receipt };
};

const openQueue = (
  arn: string,
  dir: string,
  settings: QueueSettings,
  deadLetterQueue: () => StoredQueue | undefined,
): StoredQueue => {
  mkdirSync(dir, { recursive: true });
  const messages = new Map<string, StoredMessage>();
  for (const file of readdirSync(dir)) {
    // a write cut short by a stop: the file it was replacing still stands
    if (file.endsWith('.tmp')) rmSync(join(dir, file), { force: true });
    else if (file.endsWith('.json')) {
      const message = JSON.parse(readFileSync(join(dir, file), 'utf8')) as StoredMessage;
      messages.set(message.messageId, message);
    }
  }
  const keep = (message: StoredMessage) => {
    const file = join(dir, `${message.messageId}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(message));
    renameSync(`${file}.tmp`, file);
    messages.set(message.messageId, message);
  };
  const remove = (messageId: string) => {
    rmSync(join(dir, `${messageId}.json`), { force: true });
    messages.delete(messageId);
  };
  const moveToDeadLetters = (message: StoredMessage, now: number) => {
    const { receipt: _, firstReceiveTimestamp: __, ...kept } = message;
    // kept there before removed here: a stop in between leaves a duplicate, never a loss
    deadLetterQueue()?.keep({
      ...kept,
      receiveCount: 0,
      visibleAt: now,
      deadLetterQueueSourceArn: arn,
    });
    remove(message.messageId);
  };

  return {
    arn,
    settings,
    keep,
    send: (body, delaySeconds) => {
      const now = Date.now();
      const message = {
        messageId: randomUUID(),
        body,
        sentTimestamp: now,
        receiveCount: 0,
        visibleAt: now + delaySeconds * 1000,
      };
      keep(message);
      return message;
    },
    receive: (max, visibilitySeconds = settings.visibilityTimeoutSeconds ?? 30) => {
      const now = Date.now();
      const due = [...messages.values()]
        .filter((message) => message.visibleAt <= now)
        .sort((a, b) => a.sentTimestamp - b.sentTimestamp);
      const received: { message: StoredMessage; receiptHandle: string }[] = [];
      for (const message of due) {
        if (received.length === max) break;
        if (settings.redrive && message.receiveCount >= settings.redrive.maxReceiveCount) {
          moveToDeadLetters(message, now);
          continue;
        }
        const receipt = randomBytes(12).toString('hex');
        const next = {
          ...message,
          receiveCount: message.receiveCount + 1,
          firstReceiveTimestamp: message.firstReceiveTimestamp ?? now,
          visibleAt: now + visibilitySeconds * 1000,
          receipt,
        };
        keep(next);
        received.push({ message: next, receiptHandle: `${message.messageId}.${receipt}` });
      }
      return received;
    },
    delete: (receiptHandle) => {
      const { messageId, receipt } = parseHandle(receiptHandle);
      // as SQS documents: a stale handle (the message received again since) succeeds, deleting nothing
      if (messages.get(messageId)?.receipt === receipt) remove(messageId);
    },
    changeVisibility: (receiptHandle, seconds) => {
      const { messageId, receipt } = parseHandle(receiptHandle);
      const message = messages.get(messageId);
      const now = Date.now();
      if (!message)
        throw new SqsError(
          'ReceiptHandleIsInvalid',
          `No message has the receipt handle "${receiptHandle}".`,
        );
      if (message.receipt !== receipt)
        throw new SqsError(
          'InvalidParameterValue',
          `Value ${receiptHandle} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.`,
        );
      if (message.visibleAt <= now)
        throw new SqsError('MessageNotInflight', 'The message is not in flight.');
      keep({ ...message, visibleAt: now + seconds * 1000 });
    },
    counts: () => {
      const now = Date.now();
      const counts = { visible: 0, inFlight: 0, delayed: 0 };
      for (const message of messages.values()) {
        if (message.visibleAt <= now) counts.visible += 1;
        else if (message.receipt) counts.inFlight += 1;
        else counts.delayed += 1;
      }
      return counts;
    },
  };
};

/** Opens each configured queue on its folder under dir (messages kept from an earlier run). */
export const openQueues = (
  dir: string,
  settings: Record<string, QueueSettings>,
  arnOf: (name: string) => string,
): Map<string, Queue> => {
  const queues = new Map<string, StoredQueue>();
  for (const [name, queueSettings] of Object.entries(settings)) {
    const { redrive } = queueSettings;
    if (redrive && !(redrive.deadLetterQueue in settings))
      throw new Error(
        `queue ${name}: its dead-letter queue ${redrive.deadLetterQueue} is not configured`,
      );
    if (redrive && !(Number.isInteger(redrive.maxReceiveCount) && redrive.maxReceiveCount >= 1))
      throw new Error(`queue ${name}: maxReceiveCount must be a whole number from 1`);
    const deadLetterQueue = () => (redrive ? queues.get(redrive.deadLetterQueue) : undefined);
    queues.set(name, openQueue(arnOf(name), join(dir, name), queueSettings, deadLetterQueue));
  }
  return queues;
};
