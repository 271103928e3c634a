// Whether an IP address is public, one a caller's endpoint may point at (SSRF): IPv4 outside IANA's
// special-purpose ranges; IPv6 carrying an IPv4 address (mapped, compatible, NAT64, 6to4) as that
// address, where its packets end up; any other IPv6 within global unicast (2000::/3) less its special ranges.
import { BlockList, isIP } from 'node:net';

const listOf = (family: 'ipv4' | 'ipv6', subnets: readonly (readonly [string, number])[]) => {
  const list = new BlockList();
  for (const [prefix, bits] of subnets) list.addSubnet(prefix, bits, family);
  return list;
};

const refusedIpv4 = /* @__PURE__ */ listOf('ipv4', [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 included
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the cloud metadata address 169.254.169.254 included
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, the broadcast 255.255.255.255 included
]);

const globalUnicast = /* @__PURE__ */ listOf('ipv6', [['2000::', 3]]);

/** The special ranges within global unicast. */
const refusedIpv6 = /* @__PURE__ */ listOf('ipv6', [
  ['64:ff9b:1::', 48], // local-use NAT64: where it carries the IPv4 address varies
  ['2001::', 23], // IETF protocol assignments, Teredo (an obfuscated IPv4 address) included
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
]);

/** The eight 16-bit groups of an IPv6 address (written as the URL parser normalises it). */
const groupsOf = (address: string) => {
  const [head = '', tail = ''] = new URL(`http://[${address}]/`).hostname.slice(1, -1).split('::');
  const numbers = (part: string) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const [front, back] = [numbers(head), numbers(tail)];
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
};

const ipv4Of = (high: number, low: number) =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/** The IPv4 address an IPv6 address carries, if it is one of the forms that do. */
const carriedIpv4 = (address: string) => {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groupsOf(address);
  const zeroFrom2To4 = g2 === 0 && g3 === 0 && g4 === 0;
  // ::a.b.c.d (compatible, :: and ::1 as 0.0.0.0 and 0.0.0.1) and ::ffff:a.b.c.d (mapped)
  if (g0 === 0 && g1 === 0 && zeroFrom2To4 && (g5 === 0 || g5 === 0xffff)) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zeroFrom2To4 && g5 === 0) return ipv4Of(g6, g7); // NAT64
  if (g0 === 0x2002) return ipv4Of(g1 ?? 0, g2 ?? 0); // 6to4
  return undefined;
};

/** Whether `address` (IPv4 or IPv6 text, no brackets) is public; anything not an address is not. */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 4) return !refusedIpv4.check(address, 'ipv4');
  // a zone (fe80::1%eth0) is for a scoped, so not public, address
  if (family !== 6 || address.includes('%')) return false;
  const ipv4 = carriedIpv4(address);
  if (ipv4 !== undefined) return isPublicAddress(ipv4);
  return globalUnicast.check(address, 'ipv6') && !refusedIpv6.check(address, 'ipv6');
};
