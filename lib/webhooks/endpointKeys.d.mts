export declare const ENDPOINT_PREFIX: string;
export declare const callerPartition: (owner: string) => string;
export declare const endpointKey: (owner: string, id: string) => { pk: string; sk: string };
export declare const countKey: (owner: string) => { pk: string; sk: string };
