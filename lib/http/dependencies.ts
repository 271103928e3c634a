// What every HTTP function builds once per container: the token verifier (key set, cache), telemetry;
// and the one composition root of every route: handlers/<name>.ts is `routeHandler(route)`, generated.
import { cachedTokenVerifier } from '#lib/auth/tokenCache.ts';
import { createClaimsVerifier, keySetFrom } from '#lib/auth/tokenVerifier.ts';
import { type AuthSettings, authSettings } from '#lib/config/auth.ts';
import { loadConfig, type SettingsLoader } from '#lib/config/load.ts';
import { type TelemetrySettings, telemetrySettings } from '#lib/config/telemetry.ts';
import type { HttpDependencies, HttpHandler } from '#lib/http/pipeline.ts';
import { createTelemetry } from '#lib/telemetry.ts';

type HttpSettings = { auth: AuthSettings; telemetry: TelemetrySettings };

/** The settings every route reads beside its own. */
export const httpSettings = { auth: authSettings, telemetry: telemetrySettings };

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

/** What a route's handler is made of: its settings' loaders, what it builds of them, its logic. */
export interface ComposedRoute<Dependencies> {
  settings: Record<string, SettingsLoader<unknown>>;
  dependencies: (settings: never) => Dependencies;
  with: (dependencies: HttpDependencies & Dependencies) => HttpHandler;
}

/** A route's Lambda handler: its settings read and its dependencies built once, at cold start. */
export const routeHandler = <Dependencies>(route: ComposedRoute<Dependencies>): HttpHandler => {
  // one load, so that every bad variable is reported at once
  const config = loadConfig(process.env, { ...httpSettings, ...route.settings });
  return route.with({ ...httpDependencies(config), ...route.dependencies(config as never) });
};
