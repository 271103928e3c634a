// The verification examples of docs/examples/ and the test vector they share with docs/webhooks.md:
// the vector is a delivery as the service signs it, and each example (Python's when python3 is on
// PATH) accepts it and refuses it altered.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signingKeys } from '#lib/config/webhook.ts';
import { type DeliveredType, eventBody } from '#lib/endpointDeliveries/store.ts';
import { signatureHeader } from '#lib/webhooks/signature.ts';
import { repoRoot } from '../../infra/local/paths.ts';
import { makeWebhookSecret } from '../support/webhookSecrets.ts';

const EXAMPLES = join(repoRoot, 'docs', 'examples');

interface Delivery {
  secret: string;
  headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;
  body: string;
}

const vector: Delivery = JSON.parse(
  readFileSync(join(EXAMPLES, 'webhook-test-vector.json'), 'utf8'),
);
const signedAt = Number(vector.headers['webhook-timestamp']);

describe('the test vector', () => {
  it("is signed as the service's signer signs a delivery", () => {
    const keys = signingKeys(vector.secret);
    expect(keys, 'the secret is a whsec_ secret the service takes').toBeDefined();
    const signature = signatureHeader(keys ?? [], {
      id: vector.headers['webhook-id'],
      timestamp: signedAt,
      body: vector.body,
    });
    expect(vector.headers['webhook-signature']).toBe(signature);
  });

  it('carries a body as the service writes one, of its timestamp', () => {
    const event = JSON.parse(vector.body);
    expect(new Date(event.timestamp).getTime()).toBe(signedAt * 1000);
    expect(eventBody(event.type as DeliveredType, new Date(event.timestamp), event.data)).toBe(
      vector.body,
    );
  });

  describe('with the standardwebhooks package', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('verifies at its timestamp', () => {
      vi.useFakeTimers({ now: signedAt * 1000, toFake: ['Date'] });
      expect(new Webhook(vector.secret).verify(vector.body, vector.headers)).toEqual(
        JSON.parse(vector.body),
      );
    });
  });
});

/** What an example made of a delivery: its event, or why it refused it. */
type Outcome = { event: unknown } | { refused: string };

interface Case {
  name: string;
  delivery: Delivery;
  /** The receiver's clock, in seconds. */
  now: number;
  accepted: boolean;
}

const anotherSignature = signatureHeader(signingKeys(makeWebhookSecret()) ?? [], {
  id: vector.headers['webhook-id'],
  timestamp: signedAt,
  body: vector.body,
});

/** The vector as sent, and altered: every example must decide each as the `accepted` says. */
const cases: Case[] = [
  { name: 'the vector, at its timestamp', delivery: vector, now: signedAt, accepted: true },
  { name: 'the vector, 4 minutes later', delivery: vector, now: signedAt + 240, accepted: true },
  {
    name: 'the vector during a rotation (another secret signs first)',
    delivery: {
      ...vector,
      headers: {
        ...vector.headers,
        'webhook-signature': `${anotherSignature} ${vector.headers['webhook-signature']}`,
      },
    },
    now: signedAt,
    accepted: true,
  },
  {
    name: 'a body changed by one character',
    delivery: { ...vector, body: vector.body.replace('Monstera', 'Monsterb') },
    now: signedAt,
    accepted: false,
  },
  {
    name: 'a stale timestamp (6 minutes old)',
    delivery: vector,
    now: signedAt + 360,
    accepted: false,
  },
  {
    name: 'another secret',
    delivery: { ...vector, secret: makeWebhookSecret() },
    now: signedAt,
    accepted: false,
  },
  {
    name: 'another webhook-id',
    delivery: { ...vector, headers: { ...vector.headers, 'webhook-id': 'msg_another' } },
    now: signedAt,
    accepted: false,
  },
];

const expectDecided = (outcome: Outcome | undefined, { name, delivery, accepted }: Case) => {
  if (accepted) expect(outcome, name).toEqual({ event: JSON.parse(delivery.body) });
  else expect(outcome, name).toEqual({ refused: expect.any(String) });
};

type VerifyWebhook = (
  secret: string,
  headers: Record<string, string>,
  body: string | Buffer,
  now?: number,
) => unknown;

describe('the Node example (docs/examples/verify-webhook.mjs)', async () => {
  // a path the type checker does not follow: the example is plain JavaScript, for readers to copy
  const example = pathToFileURL(join(EXAMPLES, 'verify-webhook.mjs')).href;
  const { verifyWebhook } = (await import(example)) as { verifyWebhook: VerifyWebhook };

  it.each(cases)('decides $name', (testCase) => {
    const { secret, headers, body } = testCase.delivery;
    let outcome: Outcome;
    try {
      // the raw body, as a receiver has it
      outcome = { event: verifyWebhook(secret, headers, Buffer.from(body), testCase.now) };
    } catch (error) {
      outcome = { refused: String(error) };
    }
    expectDecided(outcome, testCase);
  });

  it('checks itself on the test vector when run', () => {
    const run = spawnSync(process.execPath, [join(EXAMPLES, 'verify-webhook.mjs')], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('the test vector verifies: plant.added of plant 1\n');
  });
});

/** Runs each case through verify_webhook in one python3 (-B: no __pycache__ left in docs/). */
const DRIVER = `
import json, sys
sys.path.insert(0, sys.argv[1])
from verify_webhook import verify_webhook
outcomes = []
for case in json.load(sys.stdin):
    delivery = case["delivery"]
    try:
        event = verify_webhook(delivery["secret"], delivery["headers"], delivery["body"].encode(), now=case["now"])
        outcomes.append({"event": event})
    except ValueError as error:
        outcomes.append({"refused": str(error)})
print(json.dumps(outcomes))
`;

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.error === undefined && python.status === 0;

describe('the Python example (docs/examples/verify_webhook.py)', () => {
  // no skipped test: without python3 the test passes, saying so
  it('decides each case as the Node example does', () => {
    if (!hasPython) {
      console.warn('python3 was not found on PATH: the Python example was not run');
      return;
    }
    const run = spawnSync('python3', ['-B', '-c', DRIVER, EXAMPLES], {
      input: JSON.stringify(cases),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const outcomes: Outcome[] = JSON.parse(run.stdout);
    expect(outcomes).toHaveLength(cases.length);
    cases.forEach((testCase, index) => {
      expectDecided(outcomes[index], testCase);
    });
  });

  it('checks itself on the test vector when run', () => {
    if (!hasPython) {
      console.warn('python3 was not found on PATH: the Python example was not run');
      return;
    }
    const run = spawnSync('python3', ['-B', join(EXAMPLES, 'verify_webhook.py')], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('the test vector verifies: plant.added of plant 1\n');
  });
});
