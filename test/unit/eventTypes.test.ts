// Every event type's row (lib/plants/eventTypes.ts), read where it is used: over generated changes
// of a plant, each event the fan-out makes carries data its row's schema describes and the
// document publishes for its type, and the document's `data` of each delivered type is its schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { plantEventsOf } from '#lib/endpointDeliveries/queueEndpointEvents.ts';
import { type DeliveredType, PING } from '#lib/endpointDeliveries/store.ts';
import { EVENT_TYPES } from '#lib/plants/eventTypes.ts';
import type { StoredPlant } from '#lib/plants/store.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { OPENAPI_FILE } from '../../infra/openapi/document.ts';
import { jsonSchema } from '../../infra/openapi/schemas.ts';
import { dataSchemaOf } from '../../infra/openapi/webhooks.ts';
import { webhookBodyViolations } from '../support/openapiResponses.ts';
import { plantContent } from '../support/plantArbitraries.ts';

const isoDate = fc
  .date({ min: new Date('2020-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString());

const storedPlant: fc.Arbitrary<StoredPlant> = fc
  .record({
    id: fc.maxSafeInteger(),
    content: plantContent(),
    createdAt: isoDate,
    createdBy: fc.string({ minLength: 1, maxLength: 8 }),
    version: fc.integer({ min: 1, max: 1000 }),
  })
  .map(({ content, ...plant }) => ({ ...plant, ...content }));

/** A stream record of one plant's change, its images as a NEW_AND_OLD_IMAGES stream carries them. */
const plantChange: fc.Arbitrary<DynamoDBRecord> = fc
  .record({
    eventName: fc.constantFrom('INSERT', 'MODIFY', 'REMOVE'),
    plant: storedPlant,
    changed: plantContent(),
    at: isoDate,
  })
  .map(({ eventName, plant, changed, at }) => {
    const { name: _name, tag: _tag, ...metadata } = plant;
    const after = { ...metadata, ...changed, version: plant.version + 1 };
    const images = {
      INSERT: { NewImage: plant },
      MODIFY: { OldImage: plant, NewImage: after },
      REMOVE: { OldImage: plant },
    }[eventName];
    return {
      eventID: 'event-1',
      eventName,
      dynamodb: {
        ApproximateCreationDateTime: Date.parse(at) / 1000,
        ...Object.fromEntries(Object.entries(images).map(([key, item]) => [key, marshall(item)])),
      },
    } as DynamoDBRecord;
  });

describe('every event type', () => {
  it("sends what its row's schema describes and the document publishes", () => {
    const made = new Set<string>();
    fc.assert(
      fc.property(plantChange, (record) => {
        for (const { type, body } of plantEventsOf(record)) {
          made.add(type);
          const { data } = JSON.parse(body);
          // a field the schema lacks is stripped by the parse, one it requires and lacks refused
          expect(dataSchemaOf(type).parse(data), type).toStrictEqual(data);
          expect(webhookBodyViolations(body, type), type).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
    expect([...made].sort()).toEqual([...EVENT_TYPES].sort());
  });

  const document = parse(readFileSync(join(repoRoot, OPENAPI_FILE), 'utf8'));
  it.each<DeliveredType>([...EVENT_TYPES, PING])(
    'is published with its data schema: %s',
    (type) => {
      const { data } =
        document.webhooks[type].post.requestBody.content['application/json'].schema.properties;
      const published = data.$ref
        ? document.components.schemas[data.$ref.replace('#/components/schemas/', '')]
        : data;
      expect(published).toEqual(jsonSchema(dataSchemaOf(type), 'output'));
    },
  );
});
