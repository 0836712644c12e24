import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Thrown when an action would call a destination the action center's settings do not allow. */
export class DestinationRefusedError extends Error {}

// Loopback, link-local (cloud metadata at 169.254.169.254), private, CGNAT, unspecified and unique-local ranges.
const internalRanges: [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'], ['169.254.0.0', 16, 'ipv4'], ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], ['0.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6'], ['::', 128, 'ipv6'], ['fe80::', 10, 'ipv6'], ['fc00::', 7, 'ipv6'],
];
const internal = new BlockList();
for (const [network, prefix, family] of internalRanges) internal.addSubnet(network, prefix, family);

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** `::ffff:10.0.0.1` → `10.0.0.1`: a mapped IPv4 address is judged as the IPv4 address it is. */
const unmapped = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

function allowListOf(entries: string[]): { hosts: Set<string>; ranges: BlockList } {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const entry of entries) {
    const [network, prefix] = entry.trim().split('/');
    if (isIP(network)) ranges.addSubnet(network, prefix === undefined ? (isIP(network) === 6 ? 128 : 32) : Number(prefix), familyOf(network));
    else hosts.add(entry.trim().toLowerCase());
  }
  return { hosts, ranges };
}

/**
 * Refuses a destination that resolves to loopback, link-local or private addresses unless the allow-list names
 * the host or a range holding every address it resolves to; answers the address to connect to, so what was
 * checked is what is called (a name cannot resolve elsewhere between the check and the call).
 */
export async function checkDestination(host: string, allowed: string[]): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((entry) => entry.address);
  if (!addresses.length) throw new DestinationRefusedError(`${host} does not resolve.`);
  const list = allowListOf(allowed);
  for (const raw of addresses) {
    const address = unmapped(raw);
    if (!internal.check(address, familyOf(address))) continue;
    if (list.hosts.has(bare.toLowerCase()) || list.ranges.check(address, familyOf(address))) continue;
    throw new DestinationRefusedError(`${host} (${address}) is a loopback, link-local or private address; add it to the action center's allowed destinations to reach it.`);
  }
  return unmapped(addresses[0]);
}
