// The callers' tokens, one per invocation: one caller, each token distinct (a probe hands each
// function it loads the next of them, or the first throughout for a repeat caller).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importJWK, SignJWT } from 'jose';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, type LocalKeys } from '../infra/local/keys.ts';
import { CALLER } from './requests.mjs';
import { say, settings, WARM_UP } from './settings.ts';

const { warmInvocations, storeInvocations, memoryInvocations } = settings;
/** The most a function is invoked in a bench process: a probe hands each it loads these in turn. */
const MOST_INVOCATIONS = WARM_UP + Math.max(warmInvocations, storeInvocations, memoryInvocations);
/** Writes `count` tokens one a line to a file in `work`; returns the file. */
export const writeTokens = async (work: string, keys: LocalKeys, count = MOST_INVOCATIONS) => {
  say(`Minting ${count} tokens, one per invocation of a function (one caller, each distinct)...`);
  const signingKey = await importJWK(keys.privateJwk, 'ES256');
  const tokens: string[] = [];
  for (let i = 0; i < count; i++)
    tokens.push(
      await new SignJWT({ jti: `bench-${i}` })
        .setProtectedHeader({ alg: 'ES256', kid: String(keys.privateJwk.kid), typ: 'JWT' })
        .setIssuer(LOCAL_ISSUER)
        .setAudience(LOCAL_AUDIENCE)
        .setSubject(CALLER)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(signingKey),
    );
  const file = join(work, 'tokens.txt');
  writeFileSync(file, tokens.join('\n'));
  return file;
};
