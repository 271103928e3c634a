// The functions the bench measures, each by its name (bench/probe.mjs's kinds): every route of the
// route list, and the webhook's.
import { ROUTE_NAMES } from '../lib/routes/routeList.ts';

export const kinds = [...ROUTE_NAMES, 'deliverPlantAdded'] as const;
export type Kind = (typeof kinds)[number];
/** The functions that verify a caller's token (the webhook has no caller). */
export const hasCaller = (kind: Kind) => kind !== 'deliverPlantAdded';
