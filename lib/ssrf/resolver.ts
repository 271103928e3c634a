// An endpoint's host resolved with c-ares, not getaddrinfo, so a silent name server holds none of
// libuv's 4 threads, which the SDK's lookups need; a Resolver of its own per lookup, to cancel.
import type { LookupAddress } from 'node:dns';
import { Resolver as NameResolver } from 'node:dns/promises';

/** Every A and AAAA address of a host name; `signal` abandons the lookup. */
export type Resolver = (host: string, signal?: AbortSignal) => Promise<readonly LookupAddress[]>;

// RFC 6761: localhost is the loopback, asked of no name server (c-ares reads no /etc/hosts)
const LOOPBACK = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

export const dnsResolver =
  (nameServers?: string[]): Resolver =>
  async (host, signal) => {
    if (host === 'localhost') return LOOPBACK;
    // about 4 s at most (each query asked twice): a registration has no other deadline
    const resolver = new NameResolver({ timeout: 1000, tries: 2 });
    if (nameServers) resolver.setServers(nameServers);
    signal?.addEventListener('abort', () => resolver.cancel(), { once: true });
    const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const addresses = answers.flatMap((answer, index) =>
      answer.status === 'fulfilled'
        ? answer.value.map((address) => ({ address, family: index === 0 ? 4 : 6 }))
        : [],
    );
    const errors = answers.flatMap((answer) =>
      answer.status === 'rejected' ? [answer.reason as NodeJS.ErrnoException] : [],
    );
    // one family's addresses are enough (only those checked are connected to), whatever the other's
    if (addresses.length > 0 || errors.length === 0) return addresses;
    // none: a failure that may pass (unsettled) tells more than a family that has no address
    throw errors.find(({ code }) => code !== 'ENODATA' && code !== 'ENOTFOUND') ?? errors[0];
  };
