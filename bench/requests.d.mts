export type BenchRequest = (id: number) => {
  path?: Record<string, string>;
  query?: string;
  body?: Record<string, unknown>;
};
export declare const requests: Record<string, BenchRequest>;
