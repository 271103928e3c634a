import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { Caller } from '#lib/auth/tokenVerifier.ts';

// What the pipeline reads of an HTTP API event (payload 2.0), the only kind serverless.yml deploys.
// Header names arrive lower-cased, or the pipeline makes them so; no other stage changes the event.
export interface HttpEvent {
  headers?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
  pathParameters?: Record<string, string | undefined> | null;
  /** The query as the client sent it, still percent-encoded. */
  rawQueryString?: string;
  /** The path as the client sent it. */
  rawPath?: string;
  requestContext?: { domainName?: string; http?: { method?: string } };
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
}

/** The body, path and query as the route's schemas accept them. */
export interface RouteInput<Body = unknown, Path = unknown, Query = unknown> {
  body: Body;
  path: Path;
  query: Query;
}

/** The Lambda context; each field is written by one stage (pipeline.ts), absent until it ran. */
export interface RouteContext<Input extends RouteInput = RouteInput> extends Context {
  /** bearerAuth: who is calling. */
  caller?: Caller;
  /** jsonBody: the body as JSON, before validation (routes with a body only). */
  json?: unknown;
  /** validateInput: the request as the route's schemas accept it. */
  input?: Input;
}

/** A stage of the pipeline: it reads the event and writes its field of the context. */
export type Stage<Input extends RouteInput = RouteInput> = MiddlewareObj<
  HttpEvent,
  unknown,
  Error,
  RouteContext<Input>
>;
