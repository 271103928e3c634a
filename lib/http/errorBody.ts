// The Error object of every error response: the HTTP status code and one sentence to act on.
import * as z from 'zod/mini';
import { BODY_REFUSALS } from '#lib/http/jsonBody.ts';

export const ErrorBody = z
  .object({
    error: z.int32().register(z.globalRegistry, {
      description: 'The HTTP status code of the response',
      format: 'int32',
      examples: [400],
    }),
    message: z.string().register(z.globalRegistry, {
      description:
        'One plain sentence a client developer can act on (for a rejected field: which one, and why)',
      examples: [BODY_REFUSALS.notJson],
    }),
  })
  .register(z.globalRegistry, {
    description: 'Every error response: the status code and what went wrong.',
    examples: [{ error: 400, message: BODY_REFUSALS.notJson }],
  });
export type ErrorBody = z.infer<typeof ErrorBody>;
