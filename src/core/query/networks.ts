// IP subnets and ranges as the query language writes them on address fields: `10.61.0.0/16`, `fe80::/64`,
// `10.0.0.1-10.0.0.50`. The patterns accept only text PostgreSQL's `inet` reads, so the SQL that casts values
// matching them can never fail on a source's odd value.

const ipv4Octet = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** An IPv4 address (no leading zeros), as a POSIX/JavaScript pattern without anchors. */
export const ipv4Pattern = `${ipv4Octet}(\\.${ipv4Octet}){3}`;
const hextet = '[0-9a-fA-F]{1,4}';
/** An IPv6 address in any of its abbreviations (no embedded IPv4, no zone), without anchors. */
export const ipv6Pattern = [
  `(${hextet}:){7}${hextet}`, `(${hextet}:){1,7}:`, `(${hextet}:){1,6}:${hextet}`, `(${hextet}:){1,5}(:${hextet}){1,2}`, `(${hextet}:){1,4}(:${hextet}){1,3}`,
  `(${hextet}:){1,3}(:${hextet}){1,4}`, `(${hextet}:){1,2}(:${hextet}){1,5}`, `${hextet}:(:${hextet}){1,6}`, `:((:${hextet}){1,7}|:)`,
].map((part) => `(${part})`).join('|');
/** An address, optionally with a prefix length its family allows: what a stored value must be to be read as one. */
export const addressValuePattern = `^((${ipv4Pattern})(/(3[0-2]|[12]?[0-9]))?|(${ipv6Pattern})(/(12[0-8]|1[01][0-9]|[1-9]?[0-9]))?)$`;

const ipv4 = new RegExp(`^${ipv4Pattern}$`);
const ipv6 = new RegExp(`^(${ipv6Pattern})$`);

/** What `= <value>` means on an address field when the value is a subnet or a range (null: text as elsewhere). */
export type AddressRange = { kind: 'subnet'; subnet: string } | { kind: 'range'; from: string; to: string };

/**
 * Reads a subnet or range; throws a message for text that is plainly meant as one but is not valid
 * (`10.61.0.0/33`, `10.0.0.9-fe80::1`), so a typo is named rather than silently matching nothing.
 */
export function addressRangeOf(text: string): AddressRange | null {
  const slash = text.lastIndexOf('/');
  if (slash > 0 && /^\d+$/.test(text.slice(slash + 1))) {
    const address = text.slice(0, slash);
    const prefix = Number(text.slice(slash + 1));
    const family = ipv4.test(address) ? 4 : ipv6.test(address) ? 6 : null;
    if (!family) return /^[0-9a-fA-F.:]+$/.test(address) ? invalid(`${text} is not a subnet: ${address} is not an IP address`) : null;
    if (prefix > (family === 4 ? 32 : 128)) invalid(`${text} is not a subnet: an IPv${family} prefix is at most /${family === 4 ? 32 : 128}`);
    return { kind: 'subnet', subnet: text };
  }
  const dash = text.indexOf('-');
  if (dash > 0) {
    const from = text.slice(0, dash);
    const to = text.slice(dash + 1);
    const familyOf = (address: string) => (ipv4.test(address) ? 4 : ipv6.test(address) ? 6 : null);
    if (!familyOf(from) && !familyOf(to)) return null;
    if (!familyOf(from) || familyOf(from) !== familyOf(to)) invalid(`${text} is not an address range: write two addresses of one family, like 10.0.0.1-10.0.0.50`);
    return { kind: 'range', from, to };
  }
  return null;
}

function invalid(message: string): never {
  throw new RangeError(message);
}
