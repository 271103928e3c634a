// DELETE /webhooks/{id} in the published document.
import type { OperationDescription } from '../document.ts';
import { commonHeaders } from '../responses.ts';

export const operation: OperationDescription = {
  summary: 'Delete a webhook endpoint',
  description:
    'Removes one of your webhook endpoints: nothing more is sent to it. A retry after a success answers 404.',
  responses: { 204: { description: 'Endpoint deleted', headers: commonHeaders } },
};
