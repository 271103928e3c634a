import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export declare const CALLER: string;
export declare const plantItem: (id: number) => Record<string, AttributeValue>;
