// Stands in for @aws-sdk/credential-provider-node in the bundle (serverless.yml custom.esbuild
// alias). Lambda hands the function its role's credentials in environment variables, so the
// SDK's default chain (profiles, SSO, IMDS, ECS, web identity, with the STS and SSO clients they
// bring) is dead weight: about 135 KB of bundle and 13 ms of cold start (npm run bench).
// Remove the alias to run the bundle where credentials come from elsewhere: Lambda SnapStart
// (container credentials), EC2, ECS or a developer's profile. There every write would answer 500
// with a CredentialsProviderError in the log.
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
