// Verified tokens, remembered per container: a caller usually sends many requests with one token,
// and checking its signature is about half of a warm invocation's work. A remembered token is
// still checked on every request against its `exp` and `nbf` (the scope is checked by the route
// every time, after this); it is never used past its `exp`, nor once the key set has changed or
// is due to be fetched again (a rotated or removed key must not keep its tokens valid); and the
// number remembered is bounded, so a flood of distinct tokens cannot grow the container's memory.
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import {
  CLOCK_TOLERANCE_SECONDS,
  type VerifiedToken,
  type VerifyToken,
} from '#lib/auth/tokenVerifier.ts';

/** What jose's key sets tell of themselves (a remote one; a local one never changes). */
type ObservableKeySet = JWTVerifyGetKey & {
  /** false once the remote key set is older than its cache age: the next use fetches it again */
  readonly fresh?: boolean;
  jwks?: () => JSONWebKeySet | undefined;
  /** What a remote key set fetched last: a new object with each fetch (lib/auth/tokenVerifier.ts) */
  readonly lastFetched?: { readonly jwks?: unknown };
};

export interface TokenCacheOptions {
  /** The full verification, signature included. */
  verifyClaims: (token: string) => Promise<VerifiedToken>;
  /** The key set the full verification uses. */
  keySet: ObservableKeySet;
  /** How many tokens are remembered at most; the oldest are forgotten first. */
  maxEntries?: number;
  now?: () => number;
}

export const DEFAULT_CACHED_TOKENS = 1000;

export type CachedVerifyToken = VerifyToken & {
  /** How many tokens are remembered now. */
  readonly size: number;
};

export const cachedTokenVerifier = ({
  verifyClaims,
  keySet,
  maxEntries = DEFAULT_CACHED_TOKENS,
  now = Date.now,
}: TokenCacheOptions): CachedVerifyToken => {
  const verified = new Map<string, VerifiedToken>();
  // the key set as last seen: keys only change when jose fetches them, which happens only inside
  // a full verification; after each, a changed key set forgets every remembered token
  // (`jwks()` copies the whole set: with what a remote set fetched last at hand, its text is made
  // again only when a fetch has replaced it)
  let fetchedSeen: unknown;
  let fetchedText = '';
  const currentKeys = () => {
    const { lastFetched } = keySet;
    if (!lastFetched) return JSON.stringify(keySet.jwks?.() ?? null);
    if (lastFetched.jwks !== fetchedSeen) {
      fetchedSeen = lastFetched.jwks;
      fetchedText = JSON.stringify(fetchedSeen ?? null);
    }
    return fetchedText;
  };
  let keysSeen = currentKeys();

  // full verifications under way: one that shared its time with another cannot tell whether a
  // key set change it saw came from its own fetch (only then are its keys the current ones)
  const running = new Set<{ overlapped: boolean }>();

  /** The full verification; a key set it finds changed forgets every remembered token. */
  const verifyFully = async (token: string) => {
    const call = { overlapped: running.size > 0 };
    for (const other of running) other.overlapped = true;
    running.add(call);
    const keysBefore = keysSeen;
    try {
      const result = await verifyClaims(token);
      return { result, current: !call.overlapped || currentKeys() === keysBefore };
    } finally {
      running.delete(call);
      const keys = currentKeys();
      if (keys !== keysSeen) {
        verified.clear();
        keysSeen = keys;
      }
    }
  };

  const verifyToken = async (token: string) => {
    const seconds = now() / 1000;
    const known = verified.get(token);
    const usable =
      known !== undefined &&
      keySet.fresh !== false &&
      seconds < known.expiresAt &&
      (known.notBefore === undefined || seconds + CLOCK_TOLERANCE_SECONDS >= known.notBefore);
    if (usable) return known.caller;
    if (known) verified.delete(token);
    const { result, current } = await verifyFully(token);
    // remembered only when valid now without the clock tolerance, and verified against the keys
    // as they now are
    if (seconds < result.expiresAt && current) {
      verified.set(token, result);
      if (verified.size > maxEntries) verified.delete(verified.keys().next().value as string);
    }
    return result.caller;
  };

  return Object.defineProperty(verifyToken, 'size', {
    get: () => verified.size,
  }) as CachedVerifyToken;
};
