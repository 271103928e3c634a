export declare const SEEDED_ENDPOINTS: number;
export declare const ENDPOINT_URL: string;
export declare const endpointId: (n: number) => string;
export declare const SENT_WEBHOOK_ID: string;
