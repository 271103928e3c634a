// POST /webhooks: register an endpoint (ten a caller); this answer and a rotation's hold a secret.
import { NewEndpoint } from '#lib/endpoints/requestSchemas.ts';
import {
  type EndpointStore,
  MAX_ENDPOINTS_PER_CALLER,
  newEndpointId,
} from '#lib/endpoints/store.ts';
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import {
  endpointsUnavailable,
  endpointView,
  newSecret,
  urlRefusal,
} from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';
import type { EndpointPolicy } from '#lib/ssrf/safePost.ts';

export const createEndpointRoute = {
  ...listedRoute('createEndpoint'),
  body: jsonRequestBody(NewEndpoint, { describedAs: 'a NewEndpoint' }),
};

export const ENDPOINT_LIMIT_MESSAGE = `You have ${MAX_ENDPOINTS_PER_CALLER} webhook endpoints, the most a caller may have: delete one first`;

export const createEndpointHandler = ({
  endpointStore,
  policy,
  ...http
}: HttpDependencies & { endpointStore: Pick<EndpointStore, 'create'>; policy: EndpointPolicy }) =>
  httpRoute(http, createEndpointRoute, async ({ body, caller, url, signal }) => {
    const refusal = await urlRefusal(body.url, policy);
    if (refusal) return refusal;
    const secret = newSecret();
    const endpoint = {
      // the body's fields first: no field of a caller's names the id
      ...body,
      id: newEndpointId(),
      disabled: false,
      createdAt: new Date().toISOString(),
      secrets: [{ secret }],
    };
    const result = await endpointStore.create(caller.sub, endpoint, { signal });
    const log = { endpointId: endpoint.id };
    switch (result.outcome) {
      case 'created':
        return {
          status: 201,
          headers: { Location: `${url.origin}${url.pathname}/${endpoint.id}` },
          body: { ...endpointView(result.endpoint), secret },
          metric: 'EndpointsCreated',
          outcome: 'created',
          log,
        };
      case 'limitReached':
        return {
          status: 409,
          message: ENDPOINT_LIMIT_MESSAGE,
          metric: 'EndpointLimitReached',
          outcome: 'limitReached',
        };
      case 'unavailable':
        return endpointsUnavailable(result.cause, log);
    }
  });
