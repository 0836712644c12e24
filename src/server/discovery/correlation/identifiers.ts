/** Serial numbers vendors ship as placeholders: never evidence that two records are one machine. */
const junkSerials = new Set([
  '0', '00000000', '0000000000', '123456789', '1234567890', 'TO BE FILLED BY O.E.M.', 'DEFAULT STRING', 'SYSTEM SERIAL NUMBER', 'NONE',
  'N/A', 'NA', 'NULL', 'UNKNOWN', 'NOT SPECIFIED', 'NOT APPLICABLE', 'INVALID', 'CHASSIS SERIAL NUMBER', 'SERIAL', 'XXXXXXXXXX', 'OEM',
]);

/** Snapshot fields are lists of values; identifiers read the first (the preferred) one. */
const firstOf = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

/** A serial number in comparable form, or null for placeholders and values too short to identify anything. */
export function normalizeSerial(field: unknown): string | null {
  const value = firstOf(field);
  if (typeof value !== 'string') return null;
  const serial = value.trim().toUpperCase();
  if (serial.length < 4 || junkSerials.has(serial) || /^(.)\1+$/.test(serial)) return null;
  return serial;
}

// Organizationally unique identifiers of hypervisors and virtual switches: such MACs repeat across clones.
const virtualOuis = new Set(['00:05:69', '00:0c:29', '00:1c:14', '00:50:56', '08:00:27', '00:15:5d', '00:16:3e', '00:1c:42', '0a:00:27', '00:03:ff']);

/**
 * A MAC address as `aa:bb:cc:dd:ee:ff`, or null when it cannot identify one machine: malformed, all zeros,
 * broadcast or multicast, locally administered (randomized by phones and laptops, used by containers), or virtual.
 * Before: `"00-1A-2B-3C-4D-5E"`; after: `"00:1a:2b:3c:4d:5e"`.
 */
export function normalizeMac(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const hex = value.toLowerCase().replace(/[^0-9a-f]/g, '');
  if (hex.length !== 12 || /^0+$/.test(hex) || /^f+$/.test(hex)) return null;
  const firstOctet = Number.parseInt(hex.slice(0, 2), 16);
  if (firstOctet & 0b01 || firstOctet & 0b10) return null;
  const mac = hex.match(/../g)!.join(':');
  return virtualOuis.has(mac.slice(0, 8)) ? null : mac;
}

/** Lower-case short host name: `WEB-01.corp.example.com` → `web-01`. */
export function shortHostname(field: unknown): string | null {
  const value = firstOf(field);
  if (typeof value !== 'string') return null;
  const name = value.trim().toLowerCase().replace(/\.$/, '').split('.')[0];
  return name && name !== 'localhost' ? name : null;
}

/** The fully qualified name when the record gives one (in the hostname or as hostname + domain), else null. */
export function fullyQualifiedName(hostnameField: unknown, domainField: unknown): string | null {
  const [hostname, domain] = [firstOf(hostnameField), firstOf(domainField)];
  if (typeof hostname !== 'string' || !hostname.trim()) return null;
  const name = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (name.includes('.')) return name;
  if (typeof domain === 'string' && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(domain.trim())) return `${name}.${domain.trim().toLowerCase()}`;
  return null;
}

/** A field as a list: `"a"` → `["a"]`, `["a", null]` → `["a"]`, missing → `[]`. */
export function valuesOf(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]).filter((item) => item !== undefined && item !== null && item !== '');
}

/**
 * Every field correlation reads (rules, vetoes and recommendations, of devices and users): a discovery keeps only
 * these of each source record in memory until it writes the assets. A rule reading another field must add it here.
 */
export const identifyingFields = [
  'Hostname', 'Domain', 'SerialNumber', 'MacAddresses', 'IpAddresses', 'AgentId', 'CloudInstanceId', 'CloudProvider', 'OS.Type', 'LastSeen',
  'Username', 'Email', 'UserPrincipalName', 'EmployeeId',
];

/** The identifying fields of a record's fields, a single value unwrapped from its list (identifiers read either). */
export function identifyingPart(fields: Record<string, unknown[]>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of identifyingFields) {
    const values = fields[field];
    if (values) kept[field] = values.length === 1 ? values[0] : values;
  }
  return kept;
}
