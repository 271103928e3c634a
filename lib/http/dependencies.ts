// What every HTTP function builds once per container: the token verifier (key set, cache), telemetry.
import { cachedTokenVerifier } from '#lib/auth/tokenCache.ts';
import { createClaimsVerifier, keySetFrom } from '#lib/auth/tokenVerifier.ts';
import type { AuthSettings } from '#lib/config/auth.ts';
import type { TelemetrySettings } from '#lib/config/telemetry.ts';
import type { HttpDependencies } from '#lib/http/pipeline.ts';
import { createTelemetry } from '#lib/telemetry.ts';

type HttpSettings = { auth: AuthSettings; telemetry: TelemetrySettings };

export const httpDependencies = ({ auth, telemetry }: HttpSettings): HttpDependencies => {
  const keySet = keySetFrom(auth.keys);
  const verifyClaims = createClaimsVerifier({ ...auth, keySet });
  return {
    // a repeat caller's token is not verified again: see lib/auth/tokenCache.ts
    verifyToken: cachedTokenVerifier({ verifyClaims, keySet }),
    scopes: auth.scopes,
    ...createTelemetry(telemetry),
  };
};
