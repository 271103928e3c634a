// The method and URL a client used for a request, rebuilt from the event, so that links the service hands
// out (Link: rel="next") point where the client already is: behind a custom domain, a stage or a
// base path alike.
import type { HttpEvent } from '#lib/http/types.ts';

const firstValue = (header: string | undefined) => header?.split(',')[0]?.trim() || undefined;

export const requestMethod = (event: HttpEvent): string =>
  event.requestContext?.http?.method ?? 'GET';

export const requestUrl = (event: HttpEvent): URL => {
  const headers = event.headers ?? {};
  // API Gateway terminates TLS and says so in X-Forwarded-Proto; it is always https there
  const scheme = firstValue(headers['x-forwarded-proto']) ?? 'https';
  const host = headers.host ?? event.requestContext?.domainName ?? 'localhost';
  const url = new URL(`${scheme}://${host}`);
  url.pathname = event.rawPath ?? '/';
  if (event.rawQueryString) url.search = event.rawQueryString;
  return url;
};
