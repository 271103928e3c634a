import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export declare const SEEDED_ENDPOINTS: number;
export declare const ENDPOINT_URL: string;
export {
  callerPartition,
  countKey,
  ENDPOINT_PREFIX,
  endpointKey,
  sendsKey,
} from '#lib/endpoints/keys.mjs';
export declare const endpointId: (n: number) => string;
export declare const endpointItem: (n: number, url: string) => Record<string, AttributeValue>;
export declare const SENT_WEBHOOK_ID: string;
export declare const attemptItem: (n: number) => Record<string, AttributeValue>;
export declare const eventItem: (n?: number) => Record<string, AttributeValue>;
