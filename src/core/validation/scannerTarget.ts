const octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const ipv4 = `${octet}(\\.${octet}){3}`;
// One target: an address, an address with a CIDR suffix from 8 to 32, or an address range "from-to".
const target = new RegExp(`^${ipv4}(/(3[0-2]|[12]\\d|[89])|-${ipv4})?$`);

/**
 * Spec §5 `scanner_target`: comma-separated IPv4 targets, each optionally with a CIDR suffix 8–32 or a range to
 * another IPv4 address. Spaces around commas are allowed. Before: `"10.0.0.1, 10.0.1.0/24,10.0.2.1-10.0.2.9"` → true.
 */
export function isScannerTarget(text: string): boolean {
  return text.split(',').every((part) => target.test(part.trim()));
}
