// The plant store's contract, in domain terms: it knows nothing of HTTP.
import type { NewPlant } from '#lib/plants/schemas.ts';

/** A plant as stored: what the client sent, plus who created it and when. */
export type StoredPlant = NewPlant & {
  createdAt: string;
  createdBy: string;
};

export type CreateResult =
  /** Newly written. */
  | { outcome: 'created'; plant: StoredPlant }
  /** Already stored with the same name and tag: a safe retry, nothing written. */
  | { outcome: 'replayed'; plant: StoredPlant }
  /** Already stored with a different name or tag: nothing written. */
  | { outcome: 'conflict'; existing: StoredPlant }
  /** The store is throttling or unreachable after the client's bounded retries. */
  | { outcome: 'unavailable'; cause: unknown };

export interface PlantStore {
  create(
    plant: NewPlant,
    creator: string,
    options?: { signal?: AbortSignal },
  ): Promise<CreateResult>;
}
