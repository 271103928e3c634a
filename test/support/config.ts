// The settings of an HTTP function that uses the store, loaded as handlers/createPlant.ts does.
import { authSettings } from '#lib/config/auth.ts';
import { type Env, loadConfig } from '#lib/config/load.ts';
import { storeSettings } from '#lib/config/store.ts';
import { telemetrySettings } from '#lib/config/telemetry.ts';

export const loadStoreFunctionConfig = (env: Env) =>
  loadConfig(env, { auth: authSettings, store: storeSettings, telemetry: telemetrySettings });

export type StoreFunctionConfig = ReturnType<typeof loadStoreFunctionConfig>;
