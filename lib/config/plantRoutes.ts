// The settings every route on the plant store uses: who may call, the table, the telemetry.
import { authSettings } from './auth.ts';
import { storeSettings } from './store.ts';
import { telemetrySettings } from './telemetry.ts';

export const plantRouteSettings = {
  auth: authSettings,
  store: storeSettings,
  telemetry: telemetrySettings,
};
