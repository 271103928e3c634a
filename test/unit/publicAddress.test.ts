// The address rule of a caller's webhook endpoints, range by range and at each range's edges, and
// the numeric forms of a URL's host as the rule sees them once the URL parser normalised them.
// Addresses here are only text: nothing is sent anywhere.
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '#lib/ssrf/publicAddress.ts';
import { urlAddressProblem } from '#lib/ssrf/safePost.ts';

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', '"this network"'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'the cloud metadata address'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.0.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['FEBF::1', 'link-local, in capitals'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::a00:1', 'IPv4-compatible private'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['5f00::1', 'outside global unicast'],
    ['localhost', 'a name, not an address'],
    ['', 'nothing'],
    ['127.1', 'a short form (only the URL parser reads it)'],
    ['2130706433', 'a number (only the URL parser reads it)'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.167.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001::1',
    '2001:200::1',
    '::ffff:8.8.8.8',
    '::8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('a URL host in a numeric form', () => {
  const noLookup = () => Promise.reject(new Error('an IP address needs no lookup'));

  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0xa9.0376.43518', '169.254.169.254'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[0:0:0:0:0:ffff:a9fe:a9fe]', '::ffff:a9fe:a9fe'],
  ])('%s is refused as %s, the address it is', async (host, address) => {
    expect(
      await urlAddressProblem(`https://${host}/hook`, { allowPrivate: false, resolve: noLookup }),
    ).toEqual({
      problem: `url must point at public addresses only (refused address ${address}: not public): register a receiver reachable from the internet`,
    });
  });

  it('is accepted when the address it is, is public', async () => {
    expect(
      await urlAddressProblem('https://134744072/hook', { allowPrivate: false, resolve: noLookup }),
    ).toBeUndefined();
  });
});
