/** The ids every JSON parser represents exactly (I-JSON, RFC 7493); beyond them ids would round. */
export const ID_MIN = -Number.MAX_SAFE_INTEGER;
export const ID_MAX = Number.MAX_SAFE_INTEGER;

export const idRule = `an integer from ${ID_MIN} to ${ID_MAX}`;
