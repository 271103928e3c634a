// GET /webhooks in the published document.
import * as z from 'zod/mini';
import { Endpoint } from '#lib/endpoints/answerSchemas.ts';
import type { OperationDescription } from '../document.ts';
import { endpoint } from '../examples.ts';
import { jsonSuccess } from '../responses.ts';

export const operation: OperationDescription = {
  summary: 'List your webhook endpoints',
  description: 'Your webhook endpoints, oldest first: at most 10, so one page. No secret is shown.',
  responses: {
    200: jsonSuccess('Your endpoints; `[]` when you have none.', z.array(Endpoint), {
      endpoints: ['One endpoint', [endpoint]],
    }),
  },
};
