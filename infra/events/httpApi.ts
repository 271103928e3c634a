// API Gateway HTTP API events (payload 2.0, the only kind deployed), for calling handlers directly:
// the tests' requests and the sample events of `npm run events` (infra/local/sampleEvents.ts).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface RequestSpec {
  method?: string;
  /** The path as the client sent it: /plants by default. */
  path?: string;
  /** The route it matched, as API Gateway names it: "POST /plants" by default. */
  route?: string;
  pathParameters?: Record<string, string>;
  /** The query as the client sent it (percent-encoded, repeats and all), without the "?". */
  query?: string;
  headers?: Record<string, string>;
  body?: string | null;
  isBase64Encoded?: boolean;
}

// API Gateway joins a repeated parameter's values with commas in queryStringParameters
const joinedQuery = (query: string) => {
  const parameters = new URLSearchParams(query);
  return Object.fromEntries(
    [...new Set(parameters.keys())].map((name) => [name, parameters.getAll(name).join(',')]),
  );
};

/** HTTP API (payload 2.0): headers lower-cased by API Gateway, body absent when empty. */
export const httpApiEvent = ({
  method = 'POST',
  path = '/plants',
  route = `${method} /plants`,
  pathParameters,
  query = '',
  headers = {},
  body,
  isBase64Encoded = false,
}: RequestSpec): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: route,
  rawPath: path,
  rawQueryString: query,
  ...(query ? { queryStringParameters: joinedQuery(query) } : {}),
  ...(pathParameters ? { pathParameters } : {}),
  headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  requestContext: {
    accountId: '123456789012',
    apiId: 'api',
    domainName: 'api.test',
    domainPrefix: 'api',
    http: {
      method,
      path,
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'test',
    },
    requestId: 'request-id',
    routeKey: route,
    stage: '$default',
    time: '22/Nov/2026:00:00:00 +0000',
    timeEpoch: 1795300000000,
  },
  ...(body == null ? {} : { body }),
  isBase64Encoded,
});
