import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export declare const CALLER: string;
export declare const plantItem: (id: number) => Record<string, AttributeValue>;
export declare const SEEDED_ENDPOINTS: number;
export declare const endpointId: (n: number) => string;
export declare const SENT_WEBHOOK_ID: string;
export type BenchRequest = (id: number) => {
  path?: Record<string, string>;
  query?: string;
  body?: Record<string, unknown>;
};
export declare const requests: Record<string, BenchRequest>;
