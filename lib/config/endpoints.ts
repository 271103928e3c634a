// The settings of the routes of a caller's own webhook endpoints: who may call, the endpoints'
// table, the telemetry, and where an endpoint may point.
import { authSettings } from './auth.ts';
import type { SettingsLoader } from './load.ts';
import { webhooksStoreSettings } from './store.ts';
import { telemetrySettings } from './telemetry.ts';

export interface EndpointUrlSettings {
  /** Whether an endpoint may be http, or on a private address: on this machine only (npm start). */
  allowPrivate: boolean;
}

export const endpointUrlSettings: SettingsLoader<EndpointUrlSettings> = (read) => ({
  allowPrivate: read.oneOf('WEBHOOK_ALLOW_PRIVATE_URLS', ['true', 'false'], 'false') === 'true',
});

export const endpointRouteSettings = {
  auth: authSettings,
  store: webhooksStoreSettings,
  telemetry: telemetrySettings,
  urls: endpointUrlSettings,
};
