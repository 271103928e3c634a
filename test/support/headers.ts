// A response header by name, whatever casing the sender used.

/** fetch's Headers, or a plain object as a Lambda handler returns it */
export type ResponseHeaders = Headers | Record<string, string | undefined>;

export const headerOf = (
  { headers }: { headers?: ResponseHeaders | null | undefined },
  name: string,
): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
};
