// The e2e tests' client of the service: openapi-fetch typed by openapi.yaml (openapi-typescript's
// types), every answer it receives checked against the document's schemas and headers.
import createClient, { type Middleware } from 'openapi-fetch';
import { expectResponseMatchesContract } from './openapiResponses.ts';
import type { paths } from './plantStoreApi.d.ts';

const contractCheck: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    expectResponseMatchesContract(request.method, schemaPath, {
      status: response.status,
      headers: response.headers,
      body: await response.clone().text(),
    });
    return undefined;
  },
};

export const typedClient = (baseUrl: string) => {
  const client = createClient<paths>({ baseUrl });
  client.use(contractCheck);
  return client;
};
