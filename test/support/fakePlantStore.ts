// The one fake plant store of the unit tests: records every call, answers what the test asks for.
import type { NewPlant } from '#lib/plants/schemas.ts';
import type { CreateResult, PlantStore, StoredPlant } from '#lib/plants/store.ts';

export type StoreAnswer = CreateResult['outcome'] | 'throw' | 'hang';

interface StoreCall {
  plant: NewPlant;
  creator: string;
  signal: AbortSignal | undefined;
}

export class FakePlantStore implements PlantStore {
  readonly calls: StoreCall[] = [];
  answer: StoreAnswer = 'created';
  /** The plant already stored under the id, for 'replayed' and 'conflict'. */
  existing: StoredPlant = {
    id: 7,
    name: 'Stored ficus',
    tag: 'stored-tag',
    createdAt: '2026-01-01T00:00:00.000Z',
    createdBy: 'someone-else',
  };
  /** What 'throw' rejects with. */
  failure: unknown = new Error('table plants-unit exploded: SECRET-DETAIL-4711');

  create(plant: NewPlant, creator: string, options?: { signal?: AbortSignal }) {
    this.calls.push({ plant, creator, signal: options?.signal });
    switch (this.answer) {
      case 'created':
        return Promise.resolve<CreateResult>({
          outcome: 'created',
          plant: {
            id: plant.id,
            name: plant.name,
            ...(plant.tag === undefined ? {} : { tag: plant.tag }),
            createdAt: '2026-11-22T00:00:00.000Z',
            createdBy: creator,
          },
        });
      case 'replayed':
        return Promise.resolve<CreateResult>({ outcome: 'replayed', plant: this.existing });
      case 'conflict':
        return Promise.resolve<CreateResult>({ outcome: 'conflict', existing: this.existing });
      case 'unavailable':
        return Promise.resolve<CreateResult>({
          outcome: 'unavailable',
          cause: Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }),
        });
      case 'throw':
        return Promise.reject(this.failure);
      case 'hang':
        return new Promise<CreateResult>(() => {});
    }
  }
}
