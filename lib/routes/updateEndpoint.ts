// PUT /webhooks/{id}: replace the endpoint's settings; one left out takes its default, so a PUT
// enables an endpoint the service disabled unless it says otherwise.
import { endpointUrlSettings } from '#lib/config/endpoints.ts';
import { dynamoReplaceEndpoint } from '#lib/endpoints/dynamoStore.ts';
import { EndpointPath, EndpointUpdate } from '#lib/endpoints/requestSchemas.ts';
import { jsonRequestBody } from '#lib/http/jsonBody.ts';
import { endpointRefusal, endpointView, urlRefusal } from '#lib/routes/endpointReplies.ts';
import { defineRoute } from '#lib/routes/route.ts';

export default defineRoute({
  method: 'PUT',
  path: '/webhooks/{id}',
  tables: { webhooks: ['UpdateItem'] },
  params: EndpointPath,
  body: jsonRequestBody(EndpointUpdate, { describedAs: 'an EndpointUpdate' }),
  settings: { policy: endpointUrlSettings },
  dependencies: ({ webhooks, policy }) => ({
    endpointStore: { replace: dynamoReplaceEndpoint(webhooks) },
    policy,
  }),
  handle: async ({ path: { id }, body, caller, signal }, { endpointStore, policy }) => {
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
  },
});
