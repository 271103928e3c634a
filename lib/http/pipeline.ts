// The one ordered middleware chain every route runs; the order of its stages lives here only:
//   timeout → telemetry → error responder → header names → bearer auth (+ scope)
//   → JSON body (routes with a body) → validation (body, path, query) → route logic → reply
// Each stage writes its own field of the context (lib/http/types.ts); the logic answers a Reply.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Caller, VerifyToken } from '#lib/auth/tokenVerifier.ts';
import { bearerAuth } from '#lib/http/bearerAuth.ts';
import { errorResponder } from '#lib/http/errorResponder.ts';
import { httpError, retryAfter } from '#lib/http/httpError.ts';
import { type Reply, toHttpResponse } from '#lib/http/reply.ts';
import { requestTelemetry } from '#lib/http/requestTelemetry.ts';
import type { HttpEvent, HttpResponse, RouteContext, RouteInput, Stage } from '#lib/http/types.ts';
import { type InputSchemas, validateInput } from '#lib/http/validateInput.ts';
import { type Telemetry, traced } from '#lib/telemetry.ts';

/** Answer before Lambda's own timeout would cut us off without an Error body. */
export const TIMEOUT_MARGIN_MS = 500;

/** What every route of a deployment shares: who may call, and where logs and metrics go. */
export interface HttpDependencies extends Telemetry {
  /** Needed by every route but those open to anyone. */
  verifyToken?: VerifyToken;
  /** The scope a deployment requires of reading and of writing routes; none when undefined. */
  scopes?: Partial<Record<'read' | 'write', string | undefined>>;
}

/** Who may call a route: a caller holding the read or write scope, or anyone (no token read). */
export type Access = 'read' | 'write' | 'anyone';

export interface RouteDefinition<Body, Path, Query, A extends Access>
  extends InputSchemas<Body, Path, Query> {
  /** The route as logs name it: "GET /plants/{id}". */
  name: string;
  access: A;
  /** The protection space of the bearer challenge. */
  realm: string;
}

/** What the route's logic gets: the verified caller and the validated request. */
export interface RouteRequest<Body, Path, Query, A extends Access = 'read' | 'write'>
  extends RouteInput<Body, Path, Query> {
  caller: A extends 'anyone' ? undefined : Caller;
  /** GET, POST, ... */
  method: string;
  /** The path within the API, as its routes are written (no stage or base path). */
  apiPath: string;
  /** Header names lower-cased; a plain object: a name not written here is read with Object.hasOwn. */
  headers: Record<string, string | undefined>;
  /** The URL the client addressed (scheme, host, path, query), made each time it is read. */
  url: URL;
  /** Aborted when the function is about to run out of time. */
  signal: AbortSignal;
}

/** A Lambda handler for API Gateway HTTP API events (payload 2.0). */
export type HttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<HttpResponse>;

// the URL the client used (custom domain, stage, base path alike), so that links point there too
const requestUrl = ({ headers, requestContext, rawPath, rawQueryString }: HttpEvent): URL => {
  // API Gateway terminates TLS and says so in X-Forwarded-Proto; it is always https there
  const scheme = headers?.['x-forwarded-proto']?.split(',')[0]?.trim() || 'https';
  const url = new URL(`${scheme}://${headers?.host ?? requestContext?.domainName ?? 'localhost'}`);
  url.pathname = rawPath ?? '/';
  if (rawQueryString) url.search = rawQueryString;
  return url;
};

// HTTP API and serverless-offline send lower-case names; another caller's are lower-cased here
const lowerCaseHeaderNames: Stage = {
  before: ({ event }) => {
    const headers = event.headers ?? {};
    if (Object.keys(headers).every((name) => name === name.toLowerCase())) return;
    const entries = Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]);
    event.headers = Object.fromEntries(entries);
  },
};

export const httpRoute = <
  Body = undefined,
  Path = undefined,
  Query = undefined,
  A extends Access = 'read' | 'write',
>(
  { verifyToken, scopes = {}, start, record }: HttpDependencies,
  definition: RouteDefinition<Body, Path, Query, A>,
  logic: (request: RouteRequest<Body, Path, Query, A>) => Promise<Reply>,
): HttpHandler => {
  type Input = RouteInput<Body, Path, Query>;
  const { name, access, realm, body } = definition;
  const pipeline = middy<HttpEvent, Reply, Error, RouteContext<Input>>({
    timeoutEarlyInMillis: TIMEOUT_MARGIN_MS,
    timeoutEarlyResponse: () => {
      throw httpError(503, 'The request ran out of time: retry in a few seconds', {
        metric: 'RequestTimeouts',
        headers: retryAfter,
      });
    },
  })
    .use(requestTelemetry({ start, record }, name))
    .use(errorResponder())
    .use(lowerCaseHeaderNames);
  if (access !== 'anyone') {
    if (!verifyToken) throw new Error(`${name} needs a token verifier: it is not open to anyone`);
    pipeline.use(
      bearerAuth({ verifyToken, realm, requiredScope: scopes[access as 'read' | 'write'] }),
    );
  }
  // only routes with a body carry a parser: see jsonRequestBody
  if (body) pipeline.use(body.parser);
  const handler = pipeline
    .use(validateInput(definition))
    .handler(async (event, context, { signal }) => {
      // the stages above ran in order: validation wrote the input, bearer auth the caller
      return logic({
        ...(context.input as Input),
        caller: context.caller as RouteRequest<Body, Path, Query, A>['caller'],
        method: event.requestContext?.http?.method ?? 'GET',
        apiPath: event.rawPath ?? '/',
        headers: event.headers ?? {},
        get url() {
          return requestUrl(event);
        },
        signal,
      });
    });

  // the reply becomes API Gateway's response last of all, after telemetry has read it; the
  // invocation's trace id at hand for what no line hands it to (a plant's write)
  return traced(async (event, context) =>
    toHttpResponse(await handler(event as HttpEvent, context as RouteContext<Input>)),
  );
};
