// The signing secret as deployed: an SSM Parameter Store SecureString, read through Powertools'
// parameters with the real SSM client, here from a local stand-in of SSM's JSON protocol. Its keys
// are made once per value read, and again when a rotation changes the value.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliveryTarget, SECRET_MAX_AGE_SECONDS } from '#lib/operatorWebhook/dependencies.ts';
import { signatureHeader } from '#lib/webhooks/signature.ts';
import { startSsmStub } from '../support/ssmStub.ts';

const PARAMETER = '/plant-store/test/webhook-secret';
const FIRST = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const ROTATED = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;

let value = FIRST;
const reads: string[] = [];
let ssm: Awaited<ReturnType<typeof startSsmStub>>;

beforeAll(async () => {
  ssm = await startSsmStub(({ target, input }) => {
    reads.push(target);
    return { Parameter: { Name: input.Name, Type: 'SecureString', Value: value } };
  });
  vi.stubEnv('AWS_ENDPOINT_URL_SSM', ssm.endpoint);
  vi.stubEnv('AWS_REGION', 'us-east-1');
});
afterAll(() => {
  ssm.close();
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('the signing secret from SSM', () => {
  it('is read once per cache age, its keys made once per value, and a rotation signs with the new one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const target = deliveryTarget({
      url: 'https://hooks.example.com/plants',
      secret: { kind: 'parameter', name: PARAMETER },
      timeoutMs: 1000,
      region: 'us-east-1',
    });

    const first = await target.signingKeys();
    expect(await target.signingKeys()).toBe(first);
    expect(reads).toEqual(['AmazonSSM.GetParameter']);

    // past the cache age the parameter is read again: the same value keeps its keys
    vi.advanceTimersByTime((SECRET_MAX_AGE_SECONDS + 1) * 1000);
    expect(await target.signingKeys()).toBe(first);
    expect(reads).toHaveLength(2);

    // a rotation: the next read after the cache age signs with the new secret
    value = ROTATED;
    vi.advanceTimersByTime((SECRET_MAX_AGE_SECONDS + 1) * 1000);
    const rotated = await target.signingKeys();
    expect(rotated).not.toBe(first);
    const message = { id: 'msg_1', timestamp: Math.floor(Date.now() / 1000), body: '{"id":1}' };
    const headers = {
      'webhook-id': message.id,
      'webhook-timestamp': String(message.timestamp),
      'webhook-signature': signatureHeader(rotated, message),
    };
    expect(new Webhook(ROTATED).verify(message.body, headers)).toEqual({ id: 1 });
    expect(() => new Webhook(FIRST).verify(message.body, headers)).toThrow();
  });

  it('that holds no whsec_ secret fails naming the parameter', async () => {
    value = 'not a secret';
    const target = deliveryTarget({
      url: 'https://hooks.example.com/plants',
      secret: { kind: 'parameter', name: `${PARAMETER}-bad` },
      timeoutMs: 1000,
      region: 'us-east-1',
    });
    await expect(target.signingKeys()).rejects.toThrow(PARAMETER);
  });
});
