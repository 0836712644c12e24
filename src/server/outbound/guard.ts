// THE outbound guard: every call Cartograph makes to another system (adapters, file URLs, SMTP, syslog, webhooks,
// chat, tickets, SSO, feeds, directories, databases, SSH) asks it where it may connect. It judges the addresses a
// name resolves to, and the caller connects to the address it answers, so DNS cannot swap it after the check.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';

/**
 * Where the calls of one company may go. Link-local and cloud-metadata addresses are never reachable, whatever
 * this says. `loopback` is the provider's choice for the install (CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK); `privateRanges`
 * the provider's choice per company. `onlyListed`, when given, narrows further: loopback and private addresses are
 * then reached only when the list names their host or a range holding them (the action center's allowed destinations).
 */
export type OutboundPolicy = { loopback: boolean; privateRanges: boolean; onlyListed?: string[] };

/** Thrown when a call would reach an address the outbound policy refuses; a client error, never a 500. */
export class OutboundRefusedError extends Error {
  readonly statusCode = 400;
  readonly code = 'outbound_refused';
}

export type AddressClass = 'metadata' | 'unspecified' | 'loopback' | 'private' | 'public';

type Range = [network: string, prefix: number, family: 'ipv4' | 'ipv6'];

// Link-local (169.254.0.0/16 holds the AWS, GCP, Azure and OpenStack metadata services at 169.254.169.254),
// AWS's IPv6 metadata address and Alibaba Cloud's metadata address (inside the CGNAT range, so judged first).
const metadataRanges: Range[] = [['169.254.0.0', 16, 'ipv4'], ['100.100.100.200', 32, 'ipv4'], ['fe80::', 10, 'ipv6'], ['fd00:ec2::254', 128, 'ipv6']];
// Connecting to 0.0.0.0 or :: reaches this machine: it is never a destination anyone means.
const unspecifiedRanges: Range[] = [['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']];
const loopbackRanges: Range[] = [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']];
// RFC 1918, CGNAT (RFC 6598) and IPv6 unique-local: where on-premises systems live.
const privateRanges: Range[] = [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['fc00::', 7, 'ipv6']];

/** Names that cloud platforms answer with their metadata service, refused before they are even resolved. */
const metadataHostNames = new Set([
  'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal',
  'metadata.azure.com', 'metadata.azure.internal', 'metadata.platformequinix.com', 'metadata.packet.net',
]);

function blockListOf(ranges: Range[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}
const classes: [AddressClass, BlockList][] = [
  ['metadata', blockListOf(metadataRanges)], ['unspecified', blockListOf(unspecifiedRanges)],
  ['loopback', blockListOf(loopbackRanges)], ['private', blockListOf(privateRanges)],
];

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** `[::1]` → `::1`, `Metadata.` → `metadata`: a host as URLs and resolvers write it, made comparable. */
export const bareHost = (host: string): string => host.trim().replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();

/** `::ffff:10.0.0.1` → `10.0.0.1`: a mapped IPv4 address is judged as the IPv4 address it is. */
const unmapped = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/** The class of one IP address; what is not link-local, metadata, unspecified, loopback or private is public. */
export function classifyAddress(raw: string): AddressClass {
  const address = unmapped(bareHost(raw));
  if (!isIP(address)) throw new Error(`${raw} is not an IP address`);
  for (const [name, list] of classes) if (list.check(address, familyOf(address))) return name;
  return 'public';
}

/** Whether a host name is a cloud platform's name for its metadata service (`metadata.google.internal`, ...). */
export const isMetadataHostName = (host: string): boolean => metadataHostNames.has(bareHost(host));

function listed(entries: string[], host: string, address: string): boolean {
  for (const raw of entries) {
    const entry = raw.trim();
    const [network, prefix] = entry.split('/');
    if (isIP(network)) {
      const list = new BlockList();
      list.addSubnet(network, prefix === undefined ? (isIP(network) === 6 ? 128 : 32) : Number(prefix), familyOf(network));
      if (list.check(address, familyOf(address))) return true;
    } else if (bareHost(entry) === host) return true;
  }
  return false;
}

/** Why `address` (which `host` resolved to) is refused under `policy`, or null when it may be called. */
export function refusalOf(host: string, address: string, policy: OutboundPolicy): string | null {
  const bare = bareHost(host);
  const judged = unmapped(bareHost(address));
  const kind = classifyAddress(judged);
  const named = bare === judged ? judged : `${bare} (${judged})`;
  if (kind === 'metadata') return `${named} is a link-local or cloud-metadata address; Cartograph never calls it.`;
  if (kind === 'unspecified') return `${named} is an unspecified address (this machine); Cartograph never calls it.`;
  if (kind === 'public') return null;
  if (kind === 'loopback' && !policy.loopback) return `${named} is a loopback address; this installation does not allow calls to it (CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK).`;
  if (kind === 'private' && !policy.privateRanges) return `${named} is a private address; the provider does not allow this company to call private ranges.`;
  if (policy.onlyListed && !listed(policy.onlyListed, bare, judged)) return `${named} is a ${kind === 'loopback' ? 'loopback' : 'private'} address; add it to the action center's allowed destinations to reach it.`;
  return null;
}

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Resolves `host` and checks every address it resolves to (a name answering one public and one metadata address is
 * refused); answers them all, IPv4 first, for the caller to connect to: what was checked is what is called.
 * `resolve` is the system's resolver unless a test hands another.
 */
export async function checkedAddresses(host: string, policy: OutboundPolicy, resolve: Resolver = systemResolver): Promise<string[]> {
  const bare = bareHost(host);
  if (isMetadataHostName(bare)) throw new OutboundRefusedError(`${bare} is a cloud-metadata host name; Cartograph never calls it.`);
  let addresses: string[];
  if (isIP(unmapped(bare))) addresses = [bare];
  else {
    try {
      addresses = await resolve(bare);
    } catch (error) {
      throw Object.assign(new Error(`${bare} does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`), { code: (error as NodeJS.ErrnoException).code });
    }
  }
  if (!addresses.length) throw new Error(`${bare} does not resolve.`);
  for (const address of addresses) {
    const refusal = refusalOf(bare, address, policy);
    if (refusal) throw new OutboundRefusedError(refusal);
  }
  return addresses.map(unmapped).sort((first, second) => isIP(first) - isIP(second));
}

/** The one address to connect to for `host`, once the guard has checked every address it resolves to. */
export async function checkDestination(host: string, policy: OutboundPolicy, resolve: Resolver = systemResolver): Promise<string> {
  return (await checkedAddresses(host, policy, resolve))[0];
}

/**
 * A DNS lookup for sockets (node:net, node:tls, node:http agents, undici connectors) that answers only the checked
 * address: the socket connects where the guard looked. Literal IP addresses never reach a lookup function, so
 * `checkLiteralHost` must be called for them first.
 */
export function guardedLookup(policy: OutboundPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (error: Error | null, address: unknown, family?: number) => void) => {
    checkedAddresses(hostname, policy, resolve).then(
      (addresses) => {
        if (options.all) callback(null, addresses.map((address) => ({ address, family: isIP(address) })));
        else callback(null, addresses[0], isIP(addresses[0]));
      },
      (error: Error) => callback(error, options.all ? [] : ''),
    );
  }) as unknown as LookupFunction;
}

/** Throws when `host` is a literal address (or a metadata name) the policy refuses; names are judged at connect time. */
export function checkLiteralHost(host: string, policy: OutboundPolicy): void {
  const bare = unmapped(bareHost(host));
  if (isMetadataHostName(bare)) throw new OutboundRefusedError(`${bare} is a cloud-metadata host name; Cartograph never calls it.`);
  if (!isIP(bare)) return;
  const refusal = refusalOf(bare, bare, policy);
  if (refusal) throw new OutboundRefusedError(refusal);
}
