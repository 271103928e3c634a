// The functions the bench measures, by name (bench/probe.mjs's kinds): every route of the route list
// with a floor (bench/baseline/<name>.ts) and a request (bench/requests.mjs; a route without them is
// named, with what to write), the webhook and stream functions, and as `<function>:large` the
// fan-out and delivery functions given a plant near the 64 KiB body limit.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE_NAMES, type RouteName } from '#lib/routes/routeList.ts';
import { repoRoot } from '../infra/local/paths.ts';
import { requests } from './requests.mjs';

const WEBHOOK_FUNCTIONS = [
  'deliverPlantAdded',
  'retryPlantAdded',
  'queueEndpointEvents',
  'deliverToEndpoint',
  'keepFailedStreamRecords',
] as const;
const LARGE = ['deliverPlantAdded', 'queueEndpointEvents', 'deliverToEndpoint'] as const;
export type FunctionName = RouteName | (typeof WEBHOOK_FUNCTIONS)[number];
export type Kind = FunctionName | `${(typeof LARGE)[number]}:large`;

/** What a route lacks to be measured, as what to write: '' when it has its floor and request. */
const missingOf = (name: RouteName) =>
  [
    ...(existsSync(join(repoRoot, 'bench', 'baseline', `${name}.ts`))
      ? []
      : [`its bare floor in bench/baseline/${name}.ts`]),
    ...(requests[name] ? [] : ['its request in bench/requests.mjs']),
  ].join(' and ');
/** The routes the bench does not measure: those without a floor or a request. */
export const unmeasured = ROUTE_NAMES.filter((name) => missingOf(name) !== '');
/** The routes not measured, each with what to write to measure it. */
export const toMeasure = (names: readonly RouteName[]) =>
  names.map((name) => `${name} (to measure it, write ${missingOf(name)})`).join('; ');

export const functions: FunctionName[] = [
  ...ROUTE_NAMES.filter((name) => !unmeasured.includes(name)),
  ...WEBHOOK_FUNCTIONS,
];
export const kinds: Kind[] = [...functions, ...LARGE.map((name) => `${name}:large` as const)];
/** The function a kind measures: `queueEndpointEvents:large` is queueEndpointEvents. */
export const functionOf = (kind: Kind) => kind.replace(/:large$/, '') as FunctionName;
/** Whether the kind's plant is the large one. */
export const isLarge = (kind: Kind) => kind.endsWith(':large');
/** The functions `--only` names (a comma-separated list), in the bench's order; all without it. */
export const kindsNamed = (only: string | undefined): Kind[] => {
  if (only === undefined) return [...kinds];
  const names = only.split(',');
  const notYet = unmeasured.filter((name) => names.includes(name));
  if (notYet.length > 0)
    throw new Error(`--only: the bench does not measure ${toMeasure(notYet)}.`);
  const unknown = names.filter((name) => !(kinds as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `--only: no function ${unknown.join(', ')}; the functions: ${kinds.join(', ')}`,
    );
  return kinds.filter((kind) => names.includes(kind));
};
/** The functions that verify a caller's token (the webhooks' have no caller). */
export const hasCaller = (kind: Kind) =>
  (ROUTE_NAMES as readonly FunctionName[]).includes(functionOf(kind));

/** The function the peers do the job of, and the frameworks a user would pick instead, each doing
 * its job (bench/peers/<name>.ts). */
export const PEERS_KIND: Kind = 'createPlant';
export const peers = ['powertools', 'hono', 'express'] as const;
/** References, not peers (bench/baseline/observed/<name>.ts): the create's floor with by hand the
 * line ours writes, and the same through Middy and zod/mini (the service's shape, nothing else). */
export const references = {
  observedFloor: 'floor + observability by hand',
  middyZodFloor: 'the same through Middy and zod/mini, nothing else of ours',
} as const;
export type Reference = keyof typeof references;
/** What the create is measured beside, each against its floor. */
export const comparisons = [...(Object.keys(references) as Reference[]), ...peers];
export type Comparison = Reference | (typeof peers)[number];
