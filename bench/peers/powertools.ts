// POST /plants with Powertools' HTTP event handler, as its docs write it: a Router, an auth
// middleware (before the route's validation, as ours checks the caller before the body), the
// route's `validation` with the Zod schema, the metrics middleware, Logger. Its
// errors answer `{statusCode, error, message}`; the error handlers map them to our Error body.
import {
  BadRequestError,
  RequestValidationError,
  Router,
  UnauthorizedError,
} from '@aws-lambda-powertools/event-handler/http';
import { metrics as metricsMiddleware } from '@aws-lambda-powertools/event-handler/http/middleware/metrics';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { CHALLENGE, errorBody, NewPlant, putPlant, subOf } from './plants.ts';

const logger = new Logger({ serviceName: 'plants' });
const metrics = new Metrics({ namespace: 'plant-store', serviceName: 'plants' });
const app = new Router<{ store: { request: { sub: string } } }>({ logger });

app.use(metricsMiddleware(metrics));
app.use(async ({ reqCtx, next }) => {
  const sub = await subOf(reqCtx.req.headers.get('authorization') ?? undefined);
  if (!sub) throw new UnauthorizedError('Unauthorized');
  reqCtx.set('sub', sub);
  await next();
});

app.post(
  '/plants',
  async (reqCtx) => {
    const plant = reqCtx.valid.req.body;
    if ((await putPlant(plant, reqCtx.get('sub') ?? '')) === 'conflict') {
      return new Response(JSON.stringify(errorBody(409, 'Conflict')), {
        status: 409,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    metrics.addMetric('PlantsCreated', MetricUnit.Count, 1);
    logger.info('request', { route: 'POST /plants', status: 200, plantId: plant.id });
    const { name, tag } = plant;
    return tag === undefined ? { name } : { name, tag };
  },
  { validation: { req: { body: NewPlant } } },
);

app.errorHandler([RequestValidationError, BadRequestError, SyntaxError], async () => ({
  statusCode: 400,
  body: errorBody(400, 'Invalid plant'),
}));
app.errorHandler(UnauthorizedError, async (error) => ({
  statusCode: 401,
  headers: { 'WWW-Authenticate': CHALLENGE },
  body: errorBody(401, error.message),
}));

export const handler = (event: unknown, context: Context) =>
  // biome-ignore lint/suspicious/noExplicitAny: the Router's resolve takes v1 or v2 events
  app.resolve(event as any, context);
