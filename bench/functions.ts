// The functions the bench measures, each named by the kind of event bench/probe.mjs sends it.
export const FUNCTIONS = {
  create: 'createPlant',
  list: 'listPlants',
  get: 'getPlant',
  update: 'updatePlant',
  delete: 'deletePlant',
  deliver: 'deliverPlantAdded',
} as const;
export type Kind = keyof typeof FUNCTIONS;
export const kinds = Object.keys(FUNCTIONS) as Kind[];
/** The functions that verify a caller's token (the webhook has no caller). */
export const hasCaller = (kind: Kind) => kind !== 'deliver';
