// Verified tokens remembered per container (a signature check is half a warm invocation): each use
// checks `exp` and `nbf`, a key set change or refetch forgets them all, and their number is bounded.
import type { JSONWebKeySet } from 'jose';
import {
  CLOCK_TOLERANCE_SECONDS,
  type KeySet,
  type VerifiedToken,
  type VerifyToken,
} from '#lib/auth/tokenVerifier.ts';

// what jose's key sets tell of themselves: `fresh` is false once a remote one is due a refetch
type ObservableKeySet = KeySet & { readonly fresh?: boolean; jwks?(): JSONWebKeySet | undefined };

export interface TokenCacheOptions {
  /** The full verification, signature included. */
  verifyClaims: (token: string) => Promise<VerifiedToken>;
  keySet: ObservableKeySet;
  /** How many tokens are remembered at most; the oldest are forgotten first. */
  maxEntries?: number;
  now?: () => number;
}

export type CachedVerifyToken = VerifyToken & { readonly size: number };

export const cachedTokenVerifier = ({
  verifyClaims,
  keySet,
  maxEntries = 1000,
  now = Date.now,
}: TokenCacheOptions): CachedVerifyToken => {
  const verified = new Map<string, VerifiedToken>();
  // the key set as last seen: it changes only in a full verification's fetch, which then forgets
  // every token (its text is made again only when a fetch replaced it: `jwks()` copies the set)
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

  // verifications under way: one that overlapped another cannot tell whose fetch changed the keys
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
    // remembered only when valid now without the clock tolerance, against the keys as they now are
    if (seconds < result.expiresAt && current) {
      verified.set(token, result);
      if (verified.size > maxEntries) verified.delete(verified.keys().next().value as string);
    }
    return result.caller;
  };

  const size = { get: () => verified.size };
  return Object.defineProperty(verifyToken, 'size', size) as CachedVerifyToken;
};
