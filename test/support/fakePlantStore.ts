// The one fake plant store of the unit tests: an in-memory store with the real one's semantics
// (ownership, versions, oldest-first pages), which records every call and can be told to fail.

import type { StoreCallOptions } from '#lib/dynamo/results.ts';
import type { NewPlant } from '#lib/plants/schemas.ts';
import type {
  CreateResult,
  DeleteResult,
  GetResult,
  ListRequest,
  ListResult,
  PlantStore,
  StoredPlant,
  UpdateRequest,
  UpdateResult,
} from '#lib/plants/store.ts';
import { sameContent } from '#lib/plants/views.ts';

/** How create answers: as the store would, or a forced outcome. */
export type CreateAnswer = 'created' | 'replayed' | 'conflict' | 'notOwner';
/** A failure every method shows while it is set. */
export type StoreFault = 'unavailable' | 'throw' | 'hang';

export interface StoreCall {
  method: keyof PlantStore;
  args: unknown[];
  signal: AbortSignal | undefined;
}

const throttled = () => Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });

export class FakePlantStore implements PlantStore {
  /** The plants, by id. */
  readonly plants = new Map<number, StoredPlant>();
  /** Every call, in order. */
  readonly requests: StoreCall[] = [];
  answer: CreateAnswer = 'created';
  /** The plant a forced 'replayed' answers. */
  existing: StoredPlant = {
    id: 7,
    name: 'Stored ficus',
    tag: 'stored-tag',
    createdAt: '2026-01-01T00:00:00.000Z',
    createdBy: 'someone-else',
    version: 1,
  };
  fault: StoreFault | undefined;
  /** What 'throw' rejects with. */
  failure: unknown = new Error('table plants-unit exploded: SECRET-DETAIL-4711');
  private clock = Date.parse('2026-11-22T00:00:00.000Z');

  /** The create calls: the plant and creator each was given. */
  get calls() {
    return this.requests
      .filter((call) => call.method === 'create')
      .map(({ args: [plant, creator], signal }) => ({
        plant: plant as NewPlant,
        creator: creator as string,
        signal,
      }));
  }

  /** A plant of `owner`'s, stored as create would store it. */
  seed(plant: NewPlant, owner: string, version = 1): StoredPlant {
    const stored = { ...plant, createdAt: this.tick(), createdBy: owner, version };
    this.plants.set(plant.id, stored);
    return stored;
  }

  private tick() {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  private async answerWith<Result>(
    method: keyof PlantStore,
    args: unknown[],
    options: StoreCallOptions | undefined,
    result: () => Result,
  ): Promise<Result | { outcome: 'unavailable'; cause: unknown }> {
    this.requests.push({ method, args, signal: options?.signal });
    switch (this.fault) {
      case 'unavailable':
        return { outcome: 'unavailable', cause: throttled() };
      case 'throw':
        throw this.failure;
      case 'hang':
        return new Promise(() => {});
      default:
        return result();
    }
  }

  create(plant: NewPlant, creator: string, options?: StoreCallOptions): Promise<CreateResult> {
    return this.answerWith('create', [plant, creator], options, (): CreateResult => {
      switch (this.answer) {
        case 'replayed':
          return { outcome: 'replayed', plant: this.existing };
        case 'conflict':
          return { outcome: 'conflict', reason: 'content' };
        case 'notOwner':
          return { outcome: 'conflict', reason: 'notOwner' };
        case 'created': {
          const stored = this.plants.get(plant.id);
          if (!stored) return { outcome: 'created', plant: this.seed(plant, creator) };
          if (stored.createdBy !== creator) return { outcome: 'conflict', reason: 'notOwner' };
          return sameContent(stored, plant)
            ? { outcome: 'replayed', plant: stored }
            : { outcome: 'conflict', reason: 'content' };
        }
      }
    });
  }

  get(id: number, owner: string, options?: StoreCallOptions): Promise<GetResult> {
    return this.answerWith('get', [id, owner], options, (): GetResult => {
      const plant = this.plants.get(id);
      if (!plant) return { outcome: 'notFound', reason: 'absent' };
      return plant.createdBy === owner
        ? { outcome: 'found', plant }
        : { outcome: 'notFound', reason: 'notOwner' };
    });
  }

  list(owner: string, request: ListRequest, options?: StoreCallOptions): Promise<ListResult> {
    return this.answerWith('list', [owner, request], options, (): ListResult => {
      const { after, limit, tag } = request;
      const key = (plant: { createdAt: string; id: number }) =>
        `${plant.createdAt}/${String(plant.id).padStart(20, '0')}`;
      const mine = [...this.plants.values()]
        .filter(
          (plant) =>
            plant.createdBy === owner &&
            (tag === undefined || plant.tag === tag) &&
            (!after || key(plant) > key(after)),
        )
        .sort((a, b) => key(a).localeCompare(key(b)));
      const plants = mine.slice(0, limit);
      const last = plants.at(-1);
      return mine.length > limit && last
        ? { outcome: 'page', plants, next: { createdAt: last.createdAt, id: last.id } }
        : { outcome: 'page', plants };
    });
  }

  update(
    id: number,
    owner: string,
    request: UpdateRequest,
    options?: StoreCallOptions,
  ): Promise<UpdateResult> {
    return this.answerWith('update', [id, owner, request], options, (): UpdateResult => {
      const plant = this.plants.get(id);
      if (!plant) return { outcome: 'notFound', reason: 'absent' };
      if (plant.createdBy !== owner) return { outcome: 'notFound', reason: 'notOwner' };
      const { expectedVersions, changes } = request;
      if (expectedVersions && !expectedVersions.includes(plant.version)) {
        return { outcome: 'versionMismatch', version: plant.version };
      }
      const updated: StoredPlant = { ...plant, version: plant.version + 1 };
      for (const [field, value] of Object.entries(changes)) {
        if (value === null) delete updated[field as 'tag'];
        else if (value !== undefined) Object.assign(updated, { [field]: value });
      }
      this.plants.set(id, updated);
      return { outcome: 'updated', plant: updated };
    });
  }

  delete(id: number, owner: string, options?: StoreCallOptions): Promise<DeleteResult> {
    return this.answerWith('delete', [id, owner], options, (): DeleteResult => {
      const plant = this.plants.get(id);
      if (!plant) return { outcome: 'notFound', reason: 'absent' };
      if (plant.createdBy !== owner) return { outcome: 'notFound', reason: 'notOwner' };
      this.plants.delete(id);
      return { outcome: 'deleted' };
    });
  }
}
