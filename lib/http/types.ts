import type { Context } from 'aws-lambda';
import type { Caller } from '#lib/auth/tokenVerifier.ts';
import type { CreateResult } from '#lib/store/plantStore.ts';

/**
 * What our middlewares read and write of an API Gateway event. Both payload versions (HTTP API
 * 2.0, REST 1.0) fit once @middy/http-header-normalizer has lower-cased the header names.
 * `body` starts as the raw string and is replaced by the parsed, then validated, value.
 */
export interface HttpEvent {
  headers?: Record<string, string | undefined> | null;
  body?: unknown;
  isBase64Encoded?: boolean;
}

/** The event once the body middlewares have parsed and validated the body. */
export type ValidatedEvent<Body> = HttpEvent & { body: Body };

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** The Lambda context after bearer auth: who is calling. */
export interface AuthenticatedContext extends Context {
  caller: Caller;
  /** What the store did with the plant, once it has seen it: for the request log and metrics. */
  plantOutcome?: CreateResult['outcome'];
}

/** The context as telemetry finds it: the caller only when authentication got that far. */
export type TelemetryContext = Omit<AuthenticatedContext, 'caller'> & { caller?: Caller };
