import type { Context } from 'aws-lambda';
import type { Caller } from '#lib/auth/tokenVerifier.ts';

/**
 * What the pipeline reads of an API Gateway event. Both payload versions (HTTP API 2.0, REST 1.0)
 * fit once @middy/http-header-normalizer has lower-cased the header names. The pipeline never
 * changes the event: each stage writes its result to its own field of the RouteContext.
 */
export interface HttpEvent {
  headers?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
}

/** A JSON body as parsed, before validation. */
export interface ParsedJson {
  value: unknown;
  /**
   * Top-level integer fields written with a fraction or exponent that JSON.parse rounded to a
   * whole number (1.0000000000000001): their source text, for validation to refuse.
   */
  inexactIntegers: ReadonlyMap<string, string>;
}

/**
 * The Lambda context as the pipeline's stages fill it in, in this order; each field is written by
 * exactly one stage (lib/http/pipeline.ts) and absent until that stage has run.
 */
export interface RouteContext<Input = unknown> extends Context {
  /** bearerAuth: who is calling. */
  caller?: Caller;
  /** jsonBody: the body as JSON (routes with a body only). */
  json?: ParsedJson;
  /** validateInput: the body, path and query as the route's schemas accept them. */
  input?: Input;
}
