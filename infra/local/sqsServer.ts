// A local stand-in for SQS, for `npm start` and the tests: no SQS emulator can be installed here.
// It speaks the JSON protocol the SDK v3 client sends (POST, x-amz-target AmazonSQS.<Action>) for
// the actions the webhook retries use, to queues configured at start (infra/local/queueStore.ts
// keeps their messages as files). The SDK sends each request to its QueueUrl's host, so a client
// given one of these queue URLs reaches this server. Other actions answer UnknownOperationException.
import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenLocally } from './listen.ts';
import {
  md5Hex,
  openQueues,
  type Queue,
  type QueueSettings,
  SqsError,
  type StoredMessage,
} from './queueStore.ts';

/** The account the local queues' URLs and ARNs name. */
const LOCAL_ACCOUNT = '000000000000';

export interface LocalSqs {
  /** http://127.0.0.1:<port>, for a client's endpoint setting (AWS_ENDPOINT_URL_SQS). */
  endpoint: string;
  queueUrl: (name: string) => string;
  stop: () => Promise<void>;
}

type Input = Record<string, unknown>;

/** A whole number from the input, in SQS's range for it. */
const wholeNumber = (input: Input, name: string, min: number, max: number) => {
  const value = input[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new SqsError(
      'InvalidParameterValue',
      `Value ${String(value)} for parameter ${name} is invalid. Reason: it must be between ${min} and ${max}.`,
    );
  return value;
};

function missing(name: string): never {
  throw new SqsError('MissingParameter', `The request must contain the parameter ${name}.`);
}

const names = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

/** The attributes asked for by name (All: every one), or none. */
const picked = (all: Record<string, string | undefined>, asked: string[]) => {
  const entries = Object.entries(all).filter(
    ([name, value]) => value !== undefined && (asked.includes('All') || asked.includes(name)),
  );
  return entries.length > 0 ? (Object.fromEntries(entries) as Record<string, string>) : undefined;
};

const messageAttributes = (message: StoredMessage) => ({
  SenderId: LOCAL_ACCOUNT,
  SentTimestamp: String(message.sentTimestamp),
  ApproximateReceiveCount: String(message.receiveCount),
  ApproximateFirstReceiveTimestamp: String(message.firstReceiveTimestamp),
  DeadLetterQueueSourceArn: message.deadLetterQueueSourceArn,
});

const queueAttributes = (queue: Queue, arnOf: (name: string) => string) => {
  const { visible, inFlight, delayed } = queue.counts();
  const { redrive, visibilityTimeoutSeconds = 30 } = queue.settings;
  return {
    QueueArn: queue.arn,
    VisibilityTimeout: String(visibilityTimeoutSeconds),
    ApproximateNumberOfMessages: String(visible),
    ApproximateNumberOfMessagesNotVisible: String(inFlight),
    ApproximateNumberOfMessagesDelayed: String(delayed),
    ...(redrive && {
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: arnOf(redrive.deadLetterQueue),
        maxReceiveCount: redrive.maxReceiveCount,
      }),
    }),
  };
};

export const startLocalSqs = async ({
  dir,
  queues: settings,
  port,
  region = 'us-east-1',
}: {
  /** Each queue's messages live in a folder of it named as the queue. */
  dir: string;
  queues: Record<string, QueueSettings>;
  port?: number;
  region?: string;
}): Promise<LocalSqs> => {
  const queueArn = (name: string) => `arn:aws:sqs:${region}:${LOCAL_ACCOUNT}:${name}`;
  const queues = openQueues(dir, settings, queueArn);

  const queueOf = (input: Input) => {
    const queue = queues.get(String(input.QueueUrl).split('/').at(-1) ?? '');
    if (queue) return queue;
    throw new SqsError(
      'QueueDoesNotExist',
      `The specified queue does not exist: ${input.QueueUrl}`,
    );
  };

  /** Each action's answer; gone is aborted when the caller hangs up (or the server stops). */
  const actions: Record<string, (input: Input, gone: AbortSignal) => object | Promise<object>> = {
    SendMessage: (input) => {
      const queue = queueOf(input);
      const body = input.MessageBody;
      if (typeof body !== 'string' || body === '') return missing('MessageBody');
      // not kept here: better refused than silently dropped
      if (input.MessageAttributes || input.MessageSystemAttributes)
        throw new SqsError('InvalidParameterValue', 'The local queues keep no message attributes.');
      const message = queue.send(body, wholeNumber(input, 'DelaySeconds', 0, 900) ?? 0);
      return { MessageId: message.messageId, MD5OfMessageBody: md5Hex(body) };
    },
    ReceiveMessage: async (input, gone) => {
      const queue = queueOf(input);
      const max = wholeNumber(input, 'MaxNumberOfMessages', 1, 10) ?? 1;
      const visibility = wholeNumber(input, 'VisibilityTimeout', 0, 43_200);
      const deadline = Date.now() + (wholeNumber(input, 'WaitTimeSeconds', 0, 20) ?? 0) * 1000;
      const asked = [...names(input.MessageSystemAttributeNames), ...names(input.AttributeNames)];
      let received = queue.receive(max, visibility);
      // long polling: asked again until a message is due or the wait is over; none is taken
      // for a caller that is gone, where it would stay hidden for nothing
      while (received.length === 0 && Date.now() < deadline) {
        await sleep(50);
        if (gone.aborted) return {};
        received = queue.receive(max, visibility);
      }
      if (received.length === 0) return {};
      return {
        Messages: received.map(({ message, receiptHandle }) => ({
          MessageId: message.messageId,
          ReceiptHandle: receiptHandle,
          MD5OfBody: md5Hex(message.body),
          Body: message.body,
          Attributes: picked(messageAttributes(message), asked),
        })),
      };
    },
    DeleteMessage: (input) => {
      queueOf(input).delete(String(input.ReceiptHandle ?? ''));
      return {};
    },
    ChangeMessageVisibility: (input) => {
      const seconds =
        wholeNumber(input, 'VisibilityTimeout', 0, 43_200) ?? missing('VisibilityTimeout');
      queueOf(input).changeVisibility(String(input.ReceiptHandle ?? ''), seconds);
      return {};
    },
    GetQueueAttributes: (input) => {
      const attributes = queueAttributes(queueOf(input), queueArn);
      const asked = names(input.AttributeNames);
      const unknown = asked.find((name) => name !== 'All' && !(name in attributes));
      if (unknown) throw new SqsError('InvalidAttributeName', `Unknown Attribute ${unknown}.`);
      return { Attributes: picked(attributes, asked) };
    },
  };

  const server = createServer(async (request, response) => {
    const answer = (status: number, body: object) =>
      response
        .writeHead(status, { 'content-type': 'application/x-amz-json-1.0' })
        .end(JSON.stringify(body));
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    try {
      const target = String(request.headers['x-amz-target'] ?? '');
      const action = target.startsWith('AmazonSQS.') ? actions[target.slice(10)] : undefined;
      const body = await text(request);
      if (request.method !== 'POST' || !action)
        throw new SqsError('UnknownOperationException', `The local SQS does not serve ${target}.`);
      answer(200, await action(JSON.parse(body || '{}') as Input, gone.signal));
    } catch (error) {
      const type = error instanceof SqsError ? error.type : 'InternalFailure';
      const message = error instanceof Error ? error.message : String(error);
      answer(error instanceof SqsError ? 400 : 500, {
        __type: `com.amazonaws.sqs#${type}`,
        message,
      });
    }
  });
  const listening = await listenLocally(server, port);
  const endpoint = `http://127.0.0.1:${listening.port}`;
  return {
    endpoint,
    queueUrl: (name) => {
      if (!queues.has(name)) throw new Error(`no local queue is named ${name}`);
      return `${endpoint}/${LOCAL_ACCOUNT}/${name}`;
    },
    stop: listening.stop,
  };
};
