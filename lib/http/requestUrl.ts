// The method and URL a client used for a request, rebuilt from the event, so that links the service hands
// out (Link: rel="next") point where the client already is: behind a custom domain, a stage or a
// base path alike.
import type { HttpEvent } from '#lib/http/types.ts';

const firstValue = (header: string | undefined) => header?.split(',')[0]?.trim() || undefined;

/** The request's method, from either payload version. */
export const requestMethod = (event: HttpEvent): string =>
  event.requestContext?.http?.method ?? event.httpMethod ?? 'GET';

export const requestUrl = (event: HttpEvent): URL => {
  const headers = event.headers ?? {};
  // API Gateway terminates TLS and says so in X-Forwarded-Proto; it is always https there
  const scheme = firstValue(headers['x-forwarded-proto']) ?? 'https';
  const host = headers.host ?? event.requestContext?.domainName ?? 'localhost';
  const path = event.rawPath ?? event.requestContext?.path ?? event.path ?? '/';
  const url = new URL(`${scheme}://${host}`);
  url.pathname = path;
  if (event.rawQueryString) url.search = event.rawQueryString;
  else {
    for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
      for (const value of values ?? []) url.searchParams.append(name, value);
    }
  }
  return url;
};
