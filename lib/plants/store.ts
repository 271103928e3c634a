// The plant store's contract, without HTTP: to all but create, another's plant is not there.
import type { NotFound, StoreCall, Unavailable } from '#lib/dynamo/results.ts';
import { type NewPlant, PLANT_FIELDS, type PlantContent } from '#lib/plants/schemas.ts';

/** What the store keeps of a plant besides its id and content: never shown to a client. */
interface PlantMetadata {
  createdAt: string;
  createdBy: string;
  /** 1 at creation, +1 on every update; a plant stored before versions existed counts as 1. */
  version: number;
  /** The X-Ray trace id of the request that last wrote it: the stream hands it to the fan-out. */
  traceId?: string;
}

/** A plant as stored: what the client sent, who created it and when, and its version. */
export type StoredPlant = NewPlant & PlantMetadata;

/** Where a page of a caller's plants ends: the next page starts after it. */
export type ListPosition = Pick<StoredPlant, 'createdAt' | 'id'>;

export type CreateResult =
  /** Newly written. */
  | { outcome: 'created'; plant: StoredPlant }
  /** Already stored by this caller with the same content: a safe retry, nothing written. */
  | { outcome: 'replayed'; plant: StoredPlant }
  /** Already stored with different content, or by another caller: nothing written. */
  | { outcome: 'conflict'; reason: 'content' | 'notOwner' }
  | Unavailable;

export type GetResult = { outcome: 'found'; plant: StoredPlant } | NotFound | Unavailable;

export type ListResult =
  /** The caller's plants (with the tag, if one was asked for), oldest first; `next` when more remain. */
  { outcome: 'page'; plants: StoredPlant[]; next?: ListPosition } | Unavailable;

export type UpdateResult =
  | { outcome: 'updated'; plant: StoredPlant }
  | NotFound
  /** The plant's version is none of the expected ones: nothing written. */
  | { outcome: 'versionMismatch'; version: number }
  | Unavailable;

export type DeleteResult = { outcome: 'deleted' } | NotFound | Unavailable;

export interface ListRequest {
  limit: number;
  after?: ListPosition | undefined;
  /** Only the plants with exactly this tag; every plant of the owner's when undefined. */
  tag?: string | undefined;
}

/** An update, field by field as a JSON Merge Patch: a value sets, null removes, absent stays. */
export type PlantChanges = {
  [Field in keyof PlantContent]?: PlantContent[Field] | null | undefined;
};

/** The changes that make a plant's content exactly `content` (a PUT): each field it lacks removed. */
export const replacedBy = (content: PlantContent): PlantChanges =>
  Object.fromEntries(PLANT_FIELDS.map((field) => [field, content[field] ?? null]));

export interface UpdateRequest {
  changes: PlantChanges;
  /** Update only if the plant has one of these versions; any version when undefined. */
  expectedVersions?: readonly number[] | undefined;
}

export interface PlantStore {
  create: StoreCall<[plant: NewPlant, creator: string], CreateResult>;
  get: StoreCall<[id: number, owner: string], GetResult>;
  list: StoreCall<[owner: string, request: ListRequest], ListResult>;
  update: StoreCall<[id: number, owner: string, request: UpdateRequest], UpdateResult>;
  delete: StoreCall<[id: number, owner: string], DeleteResult>;
}
