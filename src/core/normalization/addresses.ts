// Canonical forms of network addresses, so one address is one value whatever a source wrote.

// Every record's MACs pass here: one already canonical is answered without a copy.
const canonicalMacForm = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;

/** `00-1A-2B-3C-4D-5E`, `001a.2b3c.4d5e`, `001A2B3C4D5E` → `00:1a:2b:3c:4d:5e`; anything else as it is. */
export function canonicalMac(raw: string): string {
  if (canonicalMacForm.test(raw)) return raw;
  const hex = raw.trim().toLowerCase();
  if (!/^(?:[0-9a-f]{2}([:-]?)(?:[0-9a-f]{2}\1){4}[0-9a-f]{2}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}|(?:[0-9a-f]{1,2}:){5}[0-9a-f]{1,2})$/.test(hex)) return raw.trim();
  // "0:1a:2b:3c:4d:5e" (one digit per octet, as some Unix tools print) pads each octet.
  const octets = hex.includes(':') && hex.length < 17 ? hex.split(':').map((octet) => octet.padStart(2, '0')) : hex.replace(/[^0-9a-f]/g, '').match(/../g)!;
  return octets.join(':');
}

function canonicalIpv6(raw: string): string | null {
  const address = raw.toLowerCase();
  const [head, tail, extra] = address.split('::');
  if (extra !== undefined) return null;
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  if ([...left, ...right].some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => group.replace(/^0+(?=.)/, ''));
  // RFC 5952: the longest run of two or more zero groups (the first of equals) becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    let end = start;
    while (end < 8 && groups[end] === '0') end += 1;
    if (end - start > bestLength) [bestStart, bestLength] = [start, end - start];
    start = end === start ? start + 1 : end;
  }
  if (bestStart < 0) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}

/** Whether text is an IPv4 address as written canonically (no leading zeros, no spaces): read without a regex or a copy. */
function isCanonicalIpv4(text: string): boolean {
  let dots = 0;
  let digits = 0;
  let octet = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 46) {
      if (digits === 0 || dots === 3) return false;
      dots += 1;
      digits = 0;
      octet = 0;
      continue;
    }
    if (code < 48 || code > 57 || (digits > 0 && octet === 0)) return false;
    octet = octet * 10 + code - 48;
    digits += 1;
    if (octet > 255) return false;
  }
  return dots === 3 && digits > 0;
}

/** `010.000.004.017` → `10.0.4.17`; `2001:0DB8:0000:0000:0000:0000:0000:0001` → `2001:db8::1`; anything else as it is. */
export function canonicalIp(raw: string): string {
  if (isCanonicalIpv4(raw)) return raw;
  const value = raw.trim();
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (v4) {
    const octets = v4.slice(1).map(Number);
    return octets.every((octet) => octet <= 255) ? octets.join('.') : value;
  }
  if (value.includes(':') && !value.includes('%') && !value.includes('.')) return canonicalIpv6(value) ?? value;
  return value;
}
