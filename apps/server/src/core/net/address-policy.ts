import net from 'node:net';

/**
 * Ranges that are not the public internet (RFC 6890 special-purpose registries, multicast, reserved).
 * BlockList checks IPv4-mapped IPv6 addresses (::ffff:127.0.0.1, ::ffff:7f00:1) against the IPv4 rules.
 */
const nonPublic = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 can reach any IPv4 address, private ones too
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4 embeds an IPv4 address
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

/**
 * IPv4-compatible (::/96, deprecated, but a stack may still route ::a.b.c.d to a.b.c.d) and IPv4-translated
 * (::ffff:0:0:0/96) IPv6 addresses: never public (IPv4-mapped ones are checked as IPv4). A list of their own, checked for IPv6 addresses only, because a
 * BlockList also matches IPv4 addresses against ::/96 rules.
 */
const embeddedIpv4 = new net.BlockList();
embeddedIpv4.addSubnet('::', 96, 'ipv6');
embeddedIpv4.addSubnet('::ffff:0:0:0', 96, 'ipv6');

/** Whether an IP address is on the public internet (not loopback, private, link-local, multicast…). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !nonPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  return !nonPublic.check(address, 'ipv6') && !embeddedIpv4.check(address, 'ipv6');
}

/** Non-public addresses or CIDR ranges allowed anyway (OUTBOUND_ALLOW_PRIVATE), and the check of both. */
export class AddressPolicy {
  private readonly allowed = new net.BlockList();

  constructor(allowPrivate: string[]) {
    for (const range of allowPrivate) {
      const [address = '', prefix] = range.split('/');
      const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.allowed.addAddress(address, family);
      else this.allowed.addSubnet(address, Number(prefix), family);
    }
  }

  /** A public address, or one the settings allow. */
  permitted(address: string): boolean {
    if (isPublicAddress(address)) return true;
    const family = net.isIP(address);
    return family !== 0 && this.allowed.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}
