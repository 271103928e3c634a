// A POST to a caller's endpoint safe from SSRF: every address of the host, resolved once, must be
// public, and only those are connected to (no second lookup to rebind); no redirect is followed.
import type { LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type TcpSocketConnectOpts } from 'node:net';
import { isPublicAddress } from '#lib/ssrf/publicAddress.ts';
import { dnsResolver, type Resolver } from '#lib/ssrf/resolver.ts';
import { retryAfter } from '#lib/webhooks/delivery.ts';
import { postFields, type Subsegment, startSubsegment } from '#lib/xray.ts';

/** The longest url of an endpoint, in characters (docs/api.md, "Limits"). */
export const MAX_URL_CHARACTERS = 2048;
/** 2,048, as the words write it: by hand, as toLocaleString loads ICU (~12 ms of a cold start). */
export const MAX_URL_CHARACTERS_TEXT = String(MAX_URL_CHARACTERS).replace(/\B(?=(\d{3})+$)/g, ',');

export type { Resolver };

export interface EndpointPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS=true (npm start's receivers on this machine): any address, http too. */
  allowPrivate: boolean;
  resolve?: Resolver;
  /** The address rule: replaced by a test only, as a test may contact no real public address. */
  isPublic?: (address: string) => boolean;
  /** Certificates trusted beside the system's: a test receiver's self-signed one. */
  ca?: string;
}

/** A lookup's failure that says nothing of the url: it could not be answered now. */
const UNSETTLED = ['EAI_AGAIN', 'ETIMEOUT', 'ECONNREFUSED', 'ESERVFAIL', 'EREFUSED', 'ECANCELLED'];

const schemes = (allowPrivate: boolean) => (allowPrivate ? ['https:', 'http:'] : ['https:']);

/** What is wrong with the shape of `value` as an endpoint's url (a 400's message), if anything. */
export const urlShapeProblem = (value: string, allowPrivate: boolean) => {
  if ([...value].length > MAX_URL_CHARACTERS)
    return `url must be at most ${MAX_URL_CHARACTERS_TEXT} characters`;
  const url = URL.parse(value);
  if (url === null || !schemes(allowPrivate).includes(url.protocol))
    return `url must be an absolute ${allowPrivate ? 'https or http' : 'https'} URL, like https://example.com/webhooks`;
  if (url.username || url.password)
    return 'url must hold no user info (user:password@): a receiver knows a delivery by its signature';
  if (value.includes('#')) return 'url must hold no fragment (#…): it is never sent';
  return undefined;
};

/** The addresses a request to `url` connects to, once every one of them passed the rule. */
const checkedAddresses = async (
  url: URL,
  { allowPrivate, resolve = dnsResolver(), isPublic = isPublicAddress }: EndpointPolicy,
  signal?: AbortSignal,
): Promise<readonly LookupAddress[] | { refused: string; shown?: string; unsettled?: true }> => {
  const allowed = schemes(allowPrivate);
  if (!allowed.includes(url.protocol))
    return { refused: `refused scheme ${url.protocol} (${allowed.join(' or ')} only)` };
  // an IPv6 literal is bracketed; a numeric IPv4 form (2130706433, 0x7f.1) is already dotted
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  let addresses: readonly LookupAddress[] = [{ address: host, family }];
  if (!family) {
    try {
      addresses = await resolve(host, signal);
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (UNSETTLED.includes(code ?? ''))
        return { refused: `could not resolve ${host} now`, unsettled: true };
      return { refused: `refused host ${host}: it does not resolve (${code ?? message})` };
    }
  }
  if (addresses.length === 0) return { refused: `refused host ${host}: it resolves to no address` };
  const notPublic = allowPrivate ? undefined : addresses.find(({ address }) => !isPublic(address));
  if (notPublic)
    return {
      refused: `refused address ${notPublic.address}${family ? '' : ` of ${host}`}: not public`,
      // a caller is told no address it did not write: the API is no resolver of internal names
      ...(family ? {} : { shown: `${host} has an address that is not public` }),
    };
  return addresses;
};

/** At registration, as every attempt checks: url's addresses refused (400), or unsettled (503). */
export const urlAddressProblem = async (
  url: string,
  policy: EndpointPolicy,
): Promise<{ problem: string; unsettled?: true } | undefined> => {
  const checked = await checkedAddresses(new URL(url), policy);
  if (!('refused' in checked)) return undefined;
  if (checked.unsettled) return { problem: checked.refused, unsettled: true };
  return {
    problem: `url must point at public addresses only (${checked.shown ?? checked.refused}): register a receiver reachable from the internet`,
  };
};

export interface EndpointRequest {
  url: string;
  body: string;
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
}

/** The endpoint's status (a 3xx too: no redirect is followed) and Retry-After, or why none came. */
export type EndpointAnswer = { status: number; retryAfterMs?: number } | { reason: string };

const MAX_ANSWER_BYTES = 1024;

/** The POST, and its lookup, connect (TLS included) and answer, each a subsegment (lib/xray.ts). */
export const postToEndpoint = async (request: EndpointRequest, policy: EndpointPolicy) => {
  const post = startSubsegment('POST');
  const answer = await postChecked(request, policy, post);
  post?.end(postFields(request.url, answer));
  return answer;
};

const postChecked = async (
  { url, body, headers, timeoutMs }: EndpointRequest,
  policy: EndpointPolicy,
  post?: Subsegment,
): Promise<EndpointAnswer> => {
  const target = new URL(url);
  const signal = AbortSignal.timeout(timeoutMs);
  const noAnswer = `no answer within ${timeoutMs} ms`;
  // the lookup counts in the attempt's time: a slow resolver holds no batch past its function's
  const timedOut = new Promise<{ refused: string; shown?: string }>((settle) =>
    signal.addEventListener('abort', () => settle({ refused: noAnswer }), { once: true }),
  );
  const lookup = startSubsegment('lookup', Date.now(), post);
  const checked = await Promise.race([checkedAddresses(target, policy, signal), timedOut]);
  lookup?.end();
  // the caller sees the attempt's error: no address it did not write (as at registration)
  if ('refused' in checked) return { reason: checked.shown ?? checked.refused };
  const connect: Omit<TcpSocketConnectOpts, 'port'> = {
    // the socket's own lookup answers the checked addresses: there is no second lookup to rebind
    lookup: (_host, _options, callback) => callback(null, [...checked]),
    // each checked address in turn until one connects, each given a second (Node's 250 ms would
    // pass over a distant receiver); the error is the first address's
    autoSelectFamily: true,
    autoSelectFamilyAttemptTimeout: 1000,
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((settle) => {
    const request = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      ...connect,
      // a socket of its own: a pooled one could be connected to an address checked for another
      agent: false,
      signal,
      ...(policy.ca === undefined ? {} : { ca: policy.ca }),
    });
    let waiting: Subsegment | undefined;
    if (post)
      request.on('socket', (socket) => {
        const connecting = startSubsegment('connect', Date.now(), post);
        socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
          connecting?.end();
          waiting = startSubsegment('answer', Date.now(), post);
        });
      });
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle({ reason: signal.aborted ? noAnswer : (error.code ?? error.message) }),
    );
    request.on('response', (response) => {
      waiting?.end();
      const { statusCode: status = 0 } = response;
      const retryAfterMs = retryAfter(response.headers['retry-after'] ?? null, Date.now());
      // the status line is the answer: the body is read up to 1 KiB, never waited for
      settle(retryAfterMs === undefined ? { status } : { status, retryAfterMs });
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_ANSWER_BYTES) request.destroy();
      });
    });
    request.end(body);
  });
};
