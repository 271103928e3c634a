import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export declare const SEEDED_ENDPOINTS: number;
export declare const ENDPOINT_URL: string;
export declare const ENDPOINT_PREFIX: string;
export declare const callerPartition: (owner: string) => string;
export declare const endpointKey: (owner: string, id: string) => { pk: string; sk: string };
export declare const countKey: (owner: string) => { pk: string; sk: string };
export declare const endpointId: (n: number) => string;
export declare const endpointItem: (n: number) => Record<string, AttributeValue>;
