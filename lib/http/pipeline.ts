// The one ordered middleware chain every route runs. A route says what it is (name, body schema)
// and what it does with a valid request; the order of the stages lives here and nowhere else:
//
//   timeout → logger → metrics → response → telemetry → error responder → headers → bearer auth
//   → JSON body (routes with a body) → validation → route logic → reply
//
// Each stage writes its result to its own field of the context (lib/http/types.ts); the route's
// logic gets them as one typed RouteRequest and answers a Reply, which telemetry logs and counts
// and the outermost stage turns into API Gateway's response.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Caller, VerifyToken } from '#lib/auth/tokenVerifier.ts';
import { bearerAuth } from '#lib/http/bearerAuth.ts';
import { errorResponder } from '#lib/http/errorResponder.ts';
import { httpError, retryAfter } from '#lib/http/httpError.ts';
import { jsonBody } from '#lib/http/jsonBody.ts';
import { METRICS } from '#lib/http/metrics.ts';
import { type Reply, toHttpResponse } from '#lib/http/reply.ts';
import { requestTelemetry } from '#lib/http/requestTelemetry.ts';
import type { HttpEvent, HttpResponse, RouteContext } from '#lib/http/types.ts';
import { type InputSchemas, type RouteInput, validateInput } from '#lib/http/validateInput.ts';
import type { Telemetry } from '#lib/telemetry.ts';

/** Answer before Lambda's own timeout would cut us off without an Error body. */
export const TIMEOUT_MARGIN_MS = 500;

/** What every route of a deployment shares: who may call, and where logs and metrics go. */
export interface HttpDependencies extends Telemetry {
  verifyToken: VerifyToken;
  /** A scope every caller must hold; none when undefined. */
  requiredScope?: string | undefined;
}

export interface RouteDefinition<Body> extends InputSchemas<Body> {
  /** The route as logs name it: "POST /plants". */
  name: string;
  /** The protection space of the bearer challenge. */
  realm: string;
  /** Top-level body fields that must be written as whole numbers (see lib/http/jsonBody.ts). */
  integerFields?: readonly string[];
}

/** What the route's logic gets: the verified caller and the validated input. */
export interface RouteRequest<Body> extends RouteInput<Body> {
  caller: Caller;
  /** Aborted when the function is about to run out of time. */
  signal: AbortSignal;
}

export type RouteLogic<Body> = (request: RouteRequest<Body>) => Promise<Reply>;

/** A Lambda handler for API Gateway (HTTP API 2.0 or REST 1.0 events). */
export type HttpHandler = (
  event: APIGatewayProxyEventV2 | APIGatewayProxyEvent,
  context: Context,
) => Promise<HttpResponse>;

/** The stages run in this order; none of them may be missing when the logic runs. */
const stageResults = <Body>(context: RouteContext<RouteInput<Body>>) => {
  const { caller, input } = context;
  if (!caller || !input)
    throw new Error('the pipeline reached the route without a caller or input');
  return { caller, input };
};

export const httpRoute = <Body = undefined>(
  { verifyToken, requiredScope, logger, metrics }: HttpDependencies,
  definition: RouteDefinition<Body>,
  logic: RouteLogic<Body>,
): HttpHandler => {
  const pipeline = middy<HttpEvent, Reply, Error, RouteContext<RouteInput<Body>>>({
    timeoutEarlyInMillis: TIMEOUT_MARGIN_MS,
    timeoutEarlyResponse: () => {
      throw httpError(503, 'The request ran out of time: retry in a few seconds', {
        metric: METRICS.timeouts,
        headers: retryAfter,
      });
    },
  })
    // the event is never logged, whatever POWERTOOLS_LOGGER_LOG_EVENT says: it holds the token
    // and the body
    .use(injectLambdaContext(logger, { logEvent: false, resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(requestTelemetry({ logger, metrics }, definition.name))
    .use(errorResponder())
    .use(httpHeaderNormalizer())
    .use(bearerAuth({ verifyToken, realm: definition.realm, requiredScope }));
  if (definition.body) {
    pipeline.use(
      jsonBody({
        describedAs: definition.body.describedAs,
        integerFields: definition.integerFields ?? [],
      }),
    );
  }
  const handler = pipeline
    .use(validateInput(definition))
    .handler(async (_event, context, { signal }) => {
      const { caller, input } = stageResults(context);
      return logic({ ...input, caller, signal });
    });

  // the reply becomes API Gateway's response last of all, after telemetry has read it
  return async (event, context) =>
    toHttpResponse(await handler(event as HttpEvent, context as RouteContext<RouteInput<Body>>));
};
