// POST /plants with Express 5 behind serverless-http, as their docs write them: express.json(),
// a middleware for the caller, Zod's safeParse in the route, an error-handling middleware (Express
// 5 passes a rejected async handler's error to it). Express answers its errors as HTML; the error
// middleware maps them to our Error body. One console.log line.
import './nodeRequire.ts';
import express, { type ErrorRequestHandler } from 'express';
import serverless from 'serverless-http';
import { CHALLENGE, errorBody, NewPlant, putPlant, subOf } from './plants.ts';

const app = express();
app.use(express.json());

app.use(async (req, res, next) => {
  const sub = await subOf(req.get('authorization'));
  if (!sub) {
    res.status(401).set('WWW-Authenticate', CHALLENGE).json(errorBody(401, 'Unauthorized'));
    return;
  }
  res.locals.sub = sub;
  next();
});

app.post('/plants', async (req, res) => {
  const parsed = NewPlant.safeParse(req.body);
  if (!parsed.success) {
    res.status(400).json(errorBody(400, 'Invalid plant'));
    return;
  }
  const plant = parsed.data;
  if ((await putPlant(plant, String(res.locals.sub))) === 'conflict') {
    res.status(409).json(errorBody(409, 'Conflict'));
    return;
  }
  console.log(JSON.stringify({ message: 'request', route: 'POST /plants', status: 200 }));
  const { name, tag } = plant;
  res.json(tag === undefined ? { name } : { name, tag });
});

// body-parser's errors (bad JSON) carry their status; anything else is ours to hide
const answerErrors: ErrorRequestHandler = (error, _req, res, _next) => {
  const status = typeof error?.status === 'number' && error.status < 500 ? error.status : 500;
  res.status(status).json(errorBody(status, status === 400 ? 'Invalid plant' : 'Error'));
};
app.use(answerErrors);

export const handler = serverless(app);
