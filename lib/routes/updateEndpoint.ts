// PUT /webhooks/{id}: replace the endpoint's settings; one left out takes its default, so a PUT
// enables an endpoint the service disabled unless it says otherwise.
import { EndpointPath, EndpointUpdate } from '#lib/endpoints/requestSchemas.ts';
import type { EndpointStore } from '#lib/endpoints/store.ts';
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { endpointRefusal, endpointView, urlRefusal } from '#lib/routes/endpointReplies.ts';
import { listedRoute } from '#lib/routes/routeList.ts';
import type { EndpointPolicy } from '#lib/ssrf/safePost.ts';

export const updateEndpointRoute = {
  ...listedRoute('updateEndpoint'),
  path: EndpointPath,
  body: jsonRequestBody(EndpointUpdate, { describedAs: 'an EndpointUpdate' }),
};

export const updateEndpointHandler = ({
  endpointStore,
  policy,
  ...http
}: HttpDependencies & { endpointStore: Pick<EndpointStore, 'replace'>; policy: EndpointPolicy }) =>
  httpRoute(http, updateEndpointRoute, async ({ path: { id }, body, caller, signal }) => {
    const refusal = await urlRefusal(body.url, policy);
    if (refusal) return refusal;
    const content = {
      url: body.url,
      events: body.events,
      description: body.description,
      disabled: body.disabled ?? false,
    };
    const result = await endpointStore.replace(caller.sub, id, content, { signal });
    if (result.outcome !== 'replaced') return endpointRefusal(id, result);
    return {
      status: 200,
      body: endpointView(result.endpoint),
      metric: 'EndpointsUpdated',
      outcome: 'updated',
      log: { endpointId: id },
    };
  });
