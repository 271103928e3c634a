// Stands in for @aws-sdk/credential-provider-node in the bundle (serverless.yml custom.esbuild
// alias). Lambda hands the function its role's credentials in environment variables, so the
// SDK's default chain (profiles, SSO, IMDS, ECS, web identity, with the STS and SSO clients they
// bring) is dead weight: about 135 KB of bundle and 13 ms of cold start, measured by npm run bench.
import { fromEnv } from '@aws-sdk/credential-provider-env';

type FromEnvInit = Parameters<typeof fromEnv>[0];

export const defaultProvider = (init?: FromEnvInit) => fromEnv(init);

// the rest of credential-provider-node's exports, as the SDK may import them
export const credentialsWillNeedRefresh = () => false;
export const credentialsTreatedAsExpired = () => false;
