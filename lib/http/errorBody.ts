// The Error object of every error response: the HTTP status code and one sentence to act on.
import * as z from 'zod/mini';

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
      examples: ['name is required: a string'],
    }),
  })
  .register(z.globalRegistry, {
    description: 'Every error response: the status code and what went wrong.',
    examples: [{ error: 400, message: 'name is required: a string' }],
  });
export type ErrorBody = z.infer<typeof ErrorBody>;
