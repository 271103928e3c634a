// The functions the bench measures, each by its name (bench/probe.mjs's kinds): every route of the
// route list, and the webhook's two (its first attempt, from the stream; its later ones, from the
// retry queue).
import { ROUTE_NAMES } from '#lib/routes/routeList.ts';

const WEBHOOK_KINDS = ['deliverPlantAdded', 'retryPlantAdded'] as const;
export const kinds = [...ROUTE_NAMES, ...WEBHOOK_KINDS] as const;
export type Kind = (typeof kinds)[number];
/** The functions that verify a caller's token (the webhook's have no caller). */
export const hasCaller = (kind: Kind) => !(WEBHOOK_KINDS as readonly Kind[]).includes(kind);

/** The frameworks a user would pick instead, each doing the create's job (bench/peers/<name>.ts). */
export const peers = ['powertools', 'hono', 'express'] as const;
export type Peer = (typeof peers)[number];
/** The function the peers do the job of. */
export const PEERS_KIND: Kind = 'createPlant';
/**
 * The create's second reference beside its floor: the floor plus, written by hand, the log line
 * and EMF document ours writes per request (bench/baseline/observed/createPlant.ts). Measured with
 * the peers.
 */
export const OBSERVED_FLOOR = 'observedFloor';
/** What the create is measured beside, with --peers, each against its floor. */
export const comparisons = [OBSERVED_FLOOR, ...peers] as const;
export type Comparison = (typeof comparisons)[number];
