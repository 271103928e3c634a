// POST /plants with Hono, as its docs write it: an app, a middleware for the caller, the route's
// zValidator, `handle` from hono/aws-lambda. zValidator answers Zod's issues and HTTPException a
// text body; the validator's hook and onError map them to our Error body. No metrics (Hono has
// none), one console.log line.
import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { HTTPException } from 'hono/http-exception';
import { CHALLENGE, errorBody, NewPlant, putPlant, subOf } from './plants.ts';

const app = new Hono<{ Variables: { sub: string } }>();

app.use('/plants', async (c, next) => {
  const sub = await subOf(c.req.header('authorization'));
  if (!sub) {
    throw new HTTPException(401, {
      res: c.json(errorBody(401, 'Unauthorized'), 401, { 'WWW-Authenticate': CHALLENGE }),
    });
  }
  c.set('sub', sub);
  await next();
});

app.post(
  '/plants',
  zValidator('json', NewPlant, (result, c) =>
    result.success ? undefined : c.json(errorBody(400, 'Invalid plant'), 400),
  ),
  async (c) => {
    const plant = c.req.valid('json');
    if ((await putPlant(plant, c.get('sub'))) === 'conflict') {
      return c.json(errorBody(409, 'Conflict'), 409);
    }
    console.log(JSON.stringify({ message: 'request', route: 'POST /plants', status: 200 }));
    const { name, tag } = plant;
    return c.json(tag === undefined ? { name } : { name, tag });
  },
);

app.onError((error, c) =>
  error instanceof HTTPException
    ? error.getResponse()
    : c.json(errorBody(500, 'Internal Server Error'), 500),
);

export const handler = handle(app);
