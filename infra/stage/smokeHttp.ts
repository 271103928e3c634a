// The smoke test's HTTP: one request as a client sends it, and what a check expects of its answer;
// each failure says what was expected, what came (its status and field names only: an answer may
// hold a secret or a receiver's URL), and what to do.
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import { ErrorBody } from '#lib/http/errorBody.ts';

/** What a check expected and got, and what to do about it. */
export class CheckFailed extends Error {
  constructor(expected: string, got: string, hint?: string) {
    super(`expected ${expected}, got ${got}${hint ? `: ${hint}` : ''}`);
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** An answer's status and the shape of its body, never a value. */
export const shown = ({ status, json }: Answer) =>
  `${status} ${Array.isArray(json) ? `[${json.length} items]` : json && typeof json === 'object' ? `{${Object.keys(json).join(', ')}}` : 'with no JSON object'}`;

/** What to do about an answer's unexpected status, unless its check's own hints say. */
const HINTS: Record<number, string> = {
  401: "the token was refused: get a fresh one from the stage's identity provider for a test caller (docs/authentication.md)",
  403: 'the token lacks the stage\'s read or write scope: get one with both (docs/authentication.md, "Scopes")',
  429: "throttled (API Gateway's limit, or the endpoint's pings in a minute): wait a minute and run again",
  500: "the service failed: see the function's log for this request (docs/operations.md)",
  503: 'the service or its store was unavailable: run again in a few seconds; if it persists, see docs/operations.md',
};

export const expectStatus = (answer: Answer, status: number, hints: typeof HINTS = {}) => {
  const hint = hints[answer.status] ?? HINTS[answer.status];
  if (answer.status !== status) throw new CheckFailed(String(status), shown(answer), hint);
};

/** The service's Error body, `{"error": <status>, "message"}`: its message. */
export const expectErrorBody = (answer: Answer, status: number) => {
  expectStatus(answer, status);
  const body = z.safeParse(ErrorBody, answer.json);
  if (!body.success || body.data.error !== status) {
    throw new CheckFailed(`the Error body {"error":${status},"message":...}`, shown(answer));
  }
  return body.data.message;
};

export const expectBody = (answer: Answer, status: number, expected: unknown) => {
  expectStatus(answer, status);
  if (!isDeepStrictEqual(answer.json, expected)) {
    throw new CheckFailed(JSON.stringify(expected), shown(answer));
  }
};

/** The answer's body as `schema` says it is. */
export const expectShape = <Schema extends z.ZodMiniType>(
  answer: Answer,
  schema: Schema,
  what: string,
) => {
  const body = z.safeParse(schema, answer.json);
  if (!body.success) throw new CheckFailed(what, shown(answer));
  return body.data;
};

/** Requests to the API at `baseUrl`, with `token` as their bearer unless told. */
export const stageClient =
  (baseUrl: string, token: string | undefined) =>
  async (
    method: string,
    path: string,
    {
      body,
      headers = {},
      auth = true,
    }: { body?: unknown; headers?: Record<string, string>; auth?: boolean } = {},
  ): Promise<Answer> => {
    // a Link header's next page is absolute: the token goes to the API's own origin only
    const url = new URL(/^https?:/.test(path) ? path : `${baseUrl}${path}`);
    if (url.origin !== new URL(baseUrl).origin) {
      throw new CheckFailed(
        `a Link to the API's origin ${new URL(baseUrl).origin}`,
        `one to ${url.origin}, not followed`,
        'does a proxy in front of the API keep its Host from it? Give --url the origin its Links name',
      );
    }
    const response = await fetch(url, {
      method,
      headers: {
        ...(auth && token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    }).catch((error: Error) => {
      const cause = error.cause instanceof Error ? error.cause : error;
      throw new CheckFailed(
        `an answer to ${method} ${url}`,
        `none (${cause.message})`,
        "check the URL (--url, or the stack's HttpApiUrl) and that this machine reaches it",
      );
    });
    const text = await response.text();
    const json: unknown = await new Response(text).json().catch(() => undefined);
    return { status: response.status, headers: response.headers, text, json };
  };
