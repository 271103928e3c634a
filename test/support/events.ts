// API Gateway HTTP API events (infra/events/httpApi.ts), a Lambda context, and a handler called with
// them, for calling handlers directly.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { RequestSpec } from '../../infra/events/httpApi.ts';

export { httpApiEvent, type RequestSpec } from '../../infra/events/httpApi.ts';

export const lambdaContext = (remainingMs = 10_000): Context => {
  const deadline = Date.now() + remainingMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'plant-store-test-createPlant',
    functionVersion: '$LATEST',
    invokedFunctionArn:
      'arn:aws:lambda:us-east-1:123456789012:function:plant-store-test-createPlant',
    memoryLimitInMB: '256',
    awsRequestId: 'aws-request-id',
    logGroupName: '/aws/lambda/plant-store-test-createPlant',
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/** A handler as API Gateway calls it: Middy types it by what its middlewares produce instead. */
type LambdaHttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string }>;

export const invokeHandler = (
  handler: unknown,
  event: APIGatewayProxyEventV2,
  context: Context = lambdaContext(),
) => (handler as LambdaHttpHandler)(event, context);

/** A JSON request with a bearer token; `body` undefined sends no body at all. */
export const jsonRequest = (
  token: string,
  body: string | undefined,
  headers: Record<string, string> = {},
  rest: Omit<RequestSpec, 'headers' | 'body'> = {},
): RequestSpec => ({
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
  ...(body === undefined ? {} : { body }),
  ...rest,
});
