export declare const ENDPOINT_PREFIX: string;
export declare const callerPartition: (owner: string) => string;
export declare const endpointKey: (owner: string, id: string) => { pk: string; sk: string };
export declare const countKey: (owner: string) => { pk: string; sk: string };
export declare const deliveriesPartition: (endpointId: string) => string;
export declare const ATTEMPT_PREFIX: string;
export declare const ATTEMPT_SORT_KEY: RegExp;
export declare const attemptKey: (
  endpointId: string,
  attempt: { at: string; webhookId: string; attempt: number },
) => { pk: string; sk: string };
export declare const sendsKey: (endpointId: string, minute: string) => { pk: string; sk: string };
export declare const eventKey: (
  endpointId: string,
  webhookId: string,
) => { pk: string; sk: string };
