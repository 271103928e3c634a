// The checked POST to a caller's webhook endpoint, against real receivers on this machine only:
// https with a certificate made here, for the name `localhost` (the loopback, asked of no name
// server). No test may contact a public address, so where one is needed, 127.0.0.2 stands in for
// it (the rule is replaced) and 127.0.0.1 stays private. Other names are a local name server's.
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dnsResolver } from '#lib/ssrf/resolver.ts';
import {
  type EndpointPolicy,
  postToEndpoint,
  type Resolver,
  urlAddressProblem,
  urlShapeProblem,
} from '#lib/ssrf/safePost.ts';

const PUBLIC_STAND_IN = '127.0.0.2';
const PRIVATE = '127.0.0.1';

interface Receiver {
  server: Server;
  /** TCP connections accepted, a TLS handshake that failed included. */
  connections: number;
  requests: { body: string; host: string | undefined; servername: string | false | null }[];
  answer: RequestListener;
}

let work: string;
let ca: string;
let key: string;

const noContent: RequestListener = (_request, response) => response.writeHead(204).end();

const receiver = (makeServer: (listener: RequestListener) => Server) => {
  const record: Receiver = {
    connections: 0,
    requests: [],
    answer: noContent,
    server: makeServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const { servername } = request.socket as TLSSocket;
        record.requests.push({ body, host: request.headers.host, servername });
        record.answer(request, response);
      });
    }),
  };
  record.server.on('connection', () => {
    record.connections += 1;
  });
  return record;
};

const listen = (server: Server, host: string, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });

const close = (server: Server) =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  });

const https = () => receiver((listener) => createHttpsServer({ key, cert: ca }, listener));
let publicReceiver: Receiver;
let privateReceiver: Receiver;
let httpReceiver: Receiver;
/** The port of both https receivers, so that one URL reaches either, by the address it goes to. */
let port: number;
let httpPort: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'plant-store-endpoint-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', join(work, 'key.pem'), '-out', join(work, 'cert.pem'), '-days', '1'],
      ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'],
    ],
    { stdio: 'pipe' },
  );
  ca = readFileSync(join(work, 'cert.pem'), 'utf8');
  key = readFileSync(join(work, 'key.pem'), 'utf8');
  publicReceiver = https();
  privateReceiver = https();
  httpReceiver = receiver((listener) => createHttpServer(listener));
  port = await listen(publicReceiver.server, PUBLIC_STAND_IN);
  await listen(privateReceiver.server, PRIVATE, port);
  httpPort = await listen(httpReceiver.server, PRIVATE);
});

afterAll(async () => {
  await Promise.all([publicReceiver, privateReceiver, httpReceiver].map((r) => close(r.server)));
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  for (const record of [publicReceiver, privateReceiver, httpReceiver]) {
    Object.assign(record, { connections: 0, requests: [], answer: noContent });
  }
});

/** A resolver answering each lookup in turn with the next of `answers` (the last one after). */
const resolverOf = (...answers: (readonly string[])[]) => {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    const addresses = answers[Math.min(asked.length, answers.length - 1)] ?? [];
    asked.push(host);
    return addresses.map((address) => ({ address, family: 4 }));
  };
  return { asked, resolve };
};

const noLookup = async (): Promise<LookupAddress[]> => {
  throw new Error('an IP address needs no lookup');
};

const isPublic = (address: string) => address === PUBLIC_STAND_IN;

/**
 * A name server on 127.0.0.1 that answers each of `hosts` with its IPv4 address (it has no IPv6
 * one) or an error code (DNS rcode), or each query type (A, AAAA) with its own; any other name does
 * not exist. Without `hosts`, it never answers. It notes every name asked, once a query.
 */
const nameServer = async (
  hosts?: Record<string, string | number | { A: string; AAAA: number }>,
) => {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (query, from) => {
    let end = 12;
    const labels: string[] = [];
    for (let length = query.readUInt8(end); length > 0; length = query.readUInt8(end)) {
      labels.push(query.toString('latin1', end + 1, end + 1 + length));
      end += length + 1;
    }
    asked.push(labels.join('.'));
    if (!hosts) return;
    const isA = query.readUInt16BE(end + 1) === 1;
    const entry = hosts[labels.join('.')] ?? 3; // NXDOMAIN
    const found = typeof entry === 'object' ? entry[isA ? 'A' : 'AAAA'] : entry;
    // an A record, named by a pointer to the question's name (at byte 12)
    const records =
      typeof found === 'string' && isA
        ? [[0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...found.split('.').map(Number)]]
        : [];
    const rcode = typeof found === 'number' ? found : 0;
    const header = [0x81, 0x80 | rcode, 0, 1, 0, records.length, 0, 0, 0, 0];
    const answer = [query.subarray(0, 2), Buffer.from(header), query.subarray(12, end + 5)];
    socket.send(
      Buffer.concat([...answer, ...records.map((record) => Buffer.from(record))]),
      from.port,
      from.address,
    );
  });
  await new Promise<void>((bound) => socket.bind(0, '127.0.0.1', bound));
  return {
    asked,
    // the system's resolver, asking this name server instead of the system's
    resolve: dnsResolver([`127.0.0.1:${socket.address().port}`]),
    close: () => socket.close(),
  };
};

/** The policy of a deployed stage, but 127.0.0.2 counts as public and the test's CA is trusted. */
const standIn = (resolve: Resolver): EndpointPolicy => ({
  allowPrivate: false,
  isPublic,
  resolve,
  ca,
});

const post = (url: string, policy: EndpointPolicy, timeoutMs = 5000) =>
  postToEndpoint(
    { url, body: '{"type":"plant.added"}', headers: { 'webhook-id': 'msg_1' }, timeoutMs },
    policy,
  );

describe('a checked POST', () => {
  it('goes to the checked address, with TLS verifying the certificate for the host name', async () => {
    const { asked, resolve } = resolverOf([PUBLIC_STAND_IN]);

    expect(await post(`https://localhost:${port}/hook`, standIn(resolve))).toEqual({ status: 204 });
    expect(asked).toEqual(['localhost']);
    expect(publicReceiver.requests).toEqual([
      { body: '{"type":"plant.added"}', host: `localhost:${port}`, servername: 'localhost' },
    ]);
    expect(privateReceiver.connections).toBe(0);
  });

  it('refuses a certificate not trusted, or not for the URL host', async () => {
    const { resolve } = resolverOf([PUBLIC_STAND_IN]);
    const untrusted = { allowPrivate: false, isPublic, resolve };

    expect(await post(`https://localhost:${port}/hook`, untrusted)).toEqual({
      reason: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    // the certificate names localhost, not 127.0.0.2
    expect(await post(`https://${PUBLIC_STAND_IN}:${port}/hook`, standIn(noLookup))).toEqual({
      reason: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    expect(publicReceiver.requests).toEqual([]);
  });

  it('follows no redirect: a 3xx is the answer', async () => {
    publicReceiver.answer = (_request, response) =>
      response.writeHead(307, { location: `https://localhost:${port}/elsewhere` }).end();

    expect(
      await post(`https://localhost:${port}/hook`, standIn(resolverOf([PUBLIC_STAND_IN]).resolve)),
    ).toEqual({ status: 307 });
    expect(publicReceiver.requests).toHaveLength(1);
  });

  it('reads Retry-After as delivery.ts does', async () => {
    publicReceiver.answer = (_request, response) =>
      response.writeHead(429, { 'retry-after': '120' }).end();

    expect(
      await post(`https://localhost:${port}/hook`, standIn(resolverOf([PUBLIC_STAND_IN]).resolve)),
    ).toEqual({ status: 429, retryAfterMs: 120_000 });
  });

  it('stops reading an answer after 1 KiB: an endless one is answered, not timed out', async () => {
    let cutShort: boolean | undefined;
    publicReceiver.answer = (_request, response) => {
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const more = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', more);
      response.on('close', () => {
        cutShort = !response.writableFinished;
      });
      response.writeHead(200);
      more();
    };

    expect(
      await post(`https://localhost:${port}/hook`, standIn(resolverOf([PUBLIC_STAND_IN]).resolve)),
    ).toEqual({ status: 200 });
    await expect.poll(() => cutShort).toBe(true);
  });

  it('times out when no answer comes', async () => {
    publicReceiver.answer = () => {};

    expect(
      await post(
        `https://localhost:${port}/hook`,
        standIn(resolverOf([PUBLIC_STAND_IN]).resolve),
        1000,
      ),
    ).toEqual({ reason: 'no answer within 1000 ms' });
    expect(publicReceiver.requests).toHaveLength(1);
  });

  it('is delivered at its status line: a body trickled without end is not waited for', async () => {
    let ended: boolean | undefined;
    publicReceiver.answer = (_request, response) => {
      response.writeHead(200).flushHeaders();
      const trickle = setInterval(() => response.write('x'), 500);
      response.on('close', () => {
        clearInterval(trickle);
        ended = true;
      });
    };
    const started = Date.now();

    expect(
      await post(
        `https://localhost:${port}/hook`,
        standIn(resolverOf([PUBLIC_STAND_IN]).resolve),
        2000,
      ),
    ).toEqual({ status: 200 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(ended).toBeUndefined();
    expect(publicReceiver.requests).toHaveLength(1);
    // its socket is closed at the deadline
    await expect.poll(() => ended, { timeout: 3000 }).toBe(true);
  });

  it('tries each checked address in turn', async () => {
    // nothing listens on 127.0.0.3 nor 127.0.0.4, both public here
    const policy = (...addresses: string[]) => ({
      ...standIn(resolverOf(addresses).resolve),
      isPublic: (address: string) => address !== PRIVATE,
    });

    expect(
      await post(`https://localhost:${port}/hook`, policy('127.0.0.3', PUBLIC_STAND_IN)),
    ).toEqual({ status: 204 });
    expect(publicReceiver.requests).toHaveLength(1);
    // none connects: the first address's error, and no address named
    expect(await post(`https://localhost:${port}/hook`, policy('127.0.0.3', '127.0.0.4'))).toEqual({
      reason: 'ECONNREFUSED',
    });
  });

  it('says a refused connection', async () => {
    const { resolve } = resolverOf([PUBLIC_STAND_IN]);
    // a port nobody listens on: taken a moment ago, then let go
    const spare = createHttpServer();
    const sparePort = await listen(spare, PUBLIC_STAND_IN);
    await close(spare);

    expect(await post(`https://localhost:${sparePort}/hook`, standIn(resolve))).toEqual({
      reason: 'ECONNREFUSED',
    });
  });
});

describe('the address rule of a POST', () => {
  it('refuses http unless private URLs are allowed', async () => {
    const url = `http://${PRIVATE}:${httpPort}/hook`;

    expect(await post(url, { allowPrivate: false, resolve: noLookup })).toEqual({
      reason: 'refused scheme http: (https: only)',
    });
    expect(httpReceiver.connections).toBe(0);
    expect(await post(url, { allowPrivate: true, resolve: noLookup })).toEqual({ status: 204 });
    expect(httpReceiver.requests).toHaveLength(1);
  });

  it('counts a lookup that does not answer in the attempt’s time', async () => {
    const resolve = () => new Promise<LookupAddress[]>(() => {});

    expect(await post('https://slow.example/hook', { allowPrivate: false, resolve }, 50)).toEqual({
      reason: 'no answer within 50 ms',
    });
  });

  it('never connects to a refused address', async () => {
    const url = `https://localhost:${port}/hook`;
    const { resolve } = resolverOf([PRIVATE]);

    expect(await post(url, { allowPrivate: false, resolve, ca })).toEqual({
      reason: 'localhost has an address that is not public',
    });
    expect(await post(`https://${PRIVATE}:${port}/hook`, { allowPrivate: false, ca })).toEqual({
      reason: 'refused address 127.0.0.1: not public',
    });
    // the service's own resolver: localhost is the loopback (RFC 6761)
    expect(await post(url, { allowPrivate: false, ca })).toEqual({
      reason: 'localhost has an address that is not public',
    });
    expect(privateReceiver.connections).toBe(0);
    // the rule lifted, the same URL is delivered
    expect(await post(url, { allowPrivate: true, resolve, ca })).toEqual({ status: 204 });
    expect(privateReceiver.requests).toHaveLength(1);
  });

  it('refuses a host that does not resolve, even when private URLs are allowed', async () => {
    const notFound = async (): Promise<LookupAddress[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    };

    expect(
      await post('https://nowhere.test/hook', { allowPrivate: true, resolve: notFound }),
    ).toEqual({ reason: 'refused host nowhere.test: it does not resolve (ENOTFOUND)' });
    expect(
      await post('https://localhost/hook', { allowPrivate: true, resolve: resolverOf([]).resolve }),
    ).toEqual({ reason: 'refused host localhost: it resolves to no address' });
  });
});

describe('the lookup of a host', () => {
  it('asks a name server for every A and AAAA address: one family is enough', async () => {
    const server = await nameServer({ 'ipv4-only.test': PRIVATE });
    const { resolve } = server;

    expect(
      await post(`http://ipv4-only.test:${httpPort}/hook`, { allowPrivate: true, resolve }),
    ).toEqual({ status: 204 });
    expect(server.asked).toEqual(['ipv4-only.test', 'ipv4-only.test']);
    server.close();
  });

  it('resolves to the addresses of one family when the other fails (SERVFAIL)', async () => {
    const server = await nameServer({ 'half.test': { A: PRIVATE, AAAA: 2 } });
    const policy = { allowPrivate: true, resolve: server.resolve };
    const url = `http://half.test:${httpPort}/hook`;

    expect(await urlAddressProblem(url, policy)).toBeUndefined();
    expect(await post(url, policy)).toEqual({ status: 204 });
    expect(httpReceiver.requests).toHaveLength(1);
    server.close();
  });

  it('tells a name that does not exist from a name server that cannot answer now', async () => {
    const server = await nameServer({ 'failing.test': 2 }); // SERVFAIL
    const policy = { allowPrivate: false, resolve: server.resolve };

    expect(await post('https://nowhere.test/hook', policy)).toEqual({
      reason: 'refused host nowhere.test: it does not resolve (ENOTFOUND)',
    });
    expect(await urlAddressProblem('https://failing.test/hook', policy)).toEqual({
      problem: 'could not resolve failing.test now',
      unsettled: true,
    });
    server.close();
  });

  it('holds no thread another lookup needs, and is cancelled at the deadline', async () => {
    const stuck = await nameServer();
    const healthy = await nameServer({ 'healthy.test': PRIVATE });
    let stuckEnded = false;
    // more than libuv's pool has threads (4)
    const stuckAttempts = Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        post(
          `http://stuck-${n}.test:${httpPort}/hook`,
          { allowPrivate: true, resolve: stuck.resolve },
          700,
        ),
      ),
    ).finally(() => {
      stuckEnded = true;
    });

    // another endpoint's attempt, and getaddrinfo (in the pool, as the AWS SDK's lookups) meanwhile
    expect(
      await post(`http://healthy.test:${httpPort}/hook`, {
        allowPrivate: true,
        resolve: healthy.resolve,
      }),
    ).toEqual({ status: 204 });
    expect(await lookup('localhost')).toMatchObject({ address: expect.any(String) });
    expect(stuckEnded).toBe(false);
    expect(await stuckAttempts).toEqual(Array(5).fill({ reason: 'no answer within 700 ms' }));
    // an A and an AAAA query a host, once: uncancelled, c-ares would ask again after 1 to 2 s
    await sleep(2000);
    expect(stuck.asked).toHaveLength(10);
    stuck.close();
    healthy.close();
  }, 10_000);
});

describe('a DNS rebinding', () => {
  it('never reaches the address a second lookup would answer', async () => {
    const { asked, resolve } = resolverOf([PUBLIC_STAND_IN], [PRIVATE]);

    expect(await post(`https://localhost:${port}/hook`, standIn(resolve))).toEqual({ status: 204 });
    expect(asked).toEqual(['localhost']);
    expect(publicReceiver.requests).toHaveLength(1);
    expect(privateReceiver.connections).toBe(0);
  });

  it('is refused, without any connection, when one lookup answers a private address too', async () => {
    const { resolve } = resolverOf([PUBLIC_STAND_IN, PRIVATE]);

    expect(await post(`https://localhost:${port}/hook`, standIn(resolve))).toEqual({
      reason: 'localhost has an address that is not public',
    });
    expect(publicReceiver.connections + privateReceiver.connections).toBe(0);
  });
});

describe('the URL shape rule', () => {
  const longest = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
  const notHttps = 'url must be an absolute https URL, like https://example.com/webhooks';
  const userInfo =
    'url must hold no user info (user:password@): a receiver knows a delivery by its signature';
  const fragment = 'url must hold no fragment (#…): it is never sent';

  it.each(['https://example.com/hook', 'https://example.com:8443/hook?to=plants'])(
    'accepts %s',
    (url) => {
      expect(urlShapeProblem(url, false)).toBeUndefined();
    },
  );

  it.each([
    ['/hook', notHttps],
    ['example.com/hook', notHttps],
    ['http://example.com/hook', notHttps],
    ['ftp://example.com/hook', notHttps],
    ['https://user:pass@example.com/hook', userInfo],
    ['https://user@example.com/hook', userInfo],
    ['https://example.com/hook#part', fragment],
    ['https://example.com/hook#', fragment],
  ])('refuses %s', (url, problem) => {
    expect(urlShapeProblem(url, false)).toBe(problem);
  });

  it('takes at most 2,048 characters, counted as code points', () => {
    expect(urlShapeProblem(longest, false)).toBeUndefined();
    expect(urlShapeProblem(`${longest}b`, false)).toBe('url must be at most 2,048 characters');
    const plants = `https://example.com/${'🌱'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(urlShapeProblem(plants, false)).toBeUndefined();
  });

  it('accepts http too when private URLs are allowed', () => {
    expect(urlShapeProblem('http://127.0.0.1:3000/hook', true)).toBeUndefined();
    expect(urlShapeProblem('ftp://example.com/hook', true)).toBe(
      'url must be an absolute https or http URL, like https://example.com/webhooks',
    );
  });
});
