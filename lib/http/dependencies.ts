// What every HTTP function builds once per container from its settings: the token verifier with
// its key set, and the logger and metrics.
import { createTokenVerifier, keySetFrom } from '#lib/auth/tokenVerifier.ts';
import type { AuthSettings } from '#lib/config/auth.ts';
import type { TelemetrySettings } from '#lib/config/telemetry.ts';
import type { HttpDependencies } from '#lib/http/pipeline.ts';
import { createTelemetry } from '#lib/telemetry.ts';

export const httpDependencies = ({
  auth,
  telemetry,
}: {
  auth: AuthSettings;
  telemetry: TelemetrySettings;
}): HttpDependencies => ({
  verifyToken: createTokenVerifier({
    issuer: auth.issuer,
    audience: auth.audience,
    keySet: keySetFrom(auth.keys),
  }),
  scopes: auth.scopes,
  ...createTelemetry(telemetry),
});
