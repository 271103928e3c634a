// The local run's functions as Lambda's event source mappings see them: their settings as
// serverless.yml deploys them, and an invocation through serverless-offline.
import { declaredFunctions, declaredWebhookResources, yamlOf } from './paths.ts';

/** Invokes a local function (as serverless-offline names it) with `event`: its result, or throws. */
export const invoker = (lambdaPort: number, name: string) => async (event: unknown) => {
  const url = `http://127.0.0.1:${lambdaPort}/2015-03-31/functions/plant-store-local-${name}/invocations`;
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(event) });
  const text = await response.text();
  if (!response.ok || response.headers.get('x-amz-function-error')) {
    throw new Error(`the function failed: ${text.slice(0, 300)}`);
  }
  return text ? JSON.parse(text) : null;
};

/** The event sources' batches, retries, visibility timeouts and redrives, as deployed. */
export const deployedEventSources = () => {
  const service = yamlOf('serverless.yml');
  const functions = declaredFunctions();
  const queues = declaredWebhookResources();
  // a number written once under custom, as ${self:custom.name}
  const numberOf = (value: unknown) =>
    Number(String(value).replace(/^\$\{self:custom\.(\w+)\}$/, (_, name) => service.custom[name]));
  const streamOf = (name: string) => {
    const { batchSize, maximumRetryAttempts, bisectBatchOnFunctionError } =
      functions[name].events[0].stream;
    return {
      batchSize: Number(batchSize),
      maximumRetryAttempts: numberOf(maximumRetryAttempts),
      bisectBatchOnFunctionError: bisectBatchOnFunctionError === true,
    };
  };
  // the function's event from the queue `resource` (a function may read more than one)
  const queueOf = (name: string, resource: string) => {
    const { VisibilityTimeout, RedrivePolicy } = queues[resource].Properties;
    const event = functions[name].events.find(({ sqs }: { sqs?: { arn: unknown } }) =>
      JSON.stringify(sqs?.arn ?? '').includes(resource),
    );
    return {
      batchSize: Number(event.sqs.batchSize),
      visibilityTimeoutSeconds: Number(VisibilityTimeout),
      maxReceiveCount: Number(RedrivePolicy.maxReceiveCount),
    };
  };
  return {
    stream: streamOf('deliverPlantAdded'),
    queue: queueOf('retryPlantAdded', 'WebhookRetryQueue'),
    endpointStream: streamOf('queueEndpointEvents'),
    deliveryQueue: queueOf('deliverToEndpoint', 'EndpointDeliveryQueue'),
    slowDeliveryQueue: queueOf('deliverToEndpoint', 'EndpointSlowDeliveryQueue'),
    failureQueue: queueOf('keepFailedStreamRecords', 'WebhookStreamFailureQueue'),
  };
};
