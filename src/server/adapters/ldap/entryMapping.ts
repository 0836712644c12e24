import type { Entry } from 'ldapts';

/** Attributes requested for person entries (AD, FreeIPA and inetOrgPerson names side by side). */
export const userAttributes = [
  'cn', 'uid', 'sAMAccountName', 'userPrincipalName', 'mail', 'displayName', 'givenName', 'sn', 'employeeID', 'employeeNumber',
  'memberOf', 'userAccountControl', 'lockoutTime', 'lastLogonTimestamp', 'krbLastSuccessfulAuth', 'whenCreated', 'createTimestamp', 'modifyTimestamp',
  'pwdLastSet', 'accountExpires', 'nsAccountLock', 'title', 'department', 'departmentNumber', 'manager', 'l', 'physicalDeliveryOfficeName',
  'objectGUID', 'objectSid', 'entryUUID', 'ipaUniqueID',
];

/** Attributes requested for computer entries (AD computers, FreeIPA hosts). */
export const computerAttributes = [
  'cn', 'sAMAccountName', 'dNSHostName', 'fqdn', 'operatingSystem', 'operatingSystemVersion', 'nsOsVersion', 'nsHardwarePlatform', 'serverHostName',
  'lastLogonTimestamp', 'pwdLastSet', 'userAccountControl', 'whenCreated', 'createTimestamp', 'description', 'managedBy', 'memberOf',
  'servicePrincipalName', 'objectGUID', 'objectSid', 'entryUUID', 'ipaUniqueID',
];

/** Binary attributes: ldapts would otherwise decode them as (garbled) UTF-8. */
export const binaryAttributes = ['objectGUID', 'objectSid'];

// userAccountControl flags (MS-ADTS 2.2.16).
const accountDisabled = 0x2;
const lockedOut = 0x10;
const serverTrustAccount = 0x2000;

type Attributes = Map<string, Array<string | Buffer>>;

// Servers return attribute names in their own case (AD: "sAMAccountName", some proxies: "samaccountname").
function attributesOf(entry: Entry): Attributes {
  const attributes: Attributes = new Map();
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn') continue;
    attributes.set(name.toLowerCase(), Array.isArray(value) ? value : [value]);
  }
  return attributes;
}

const first = (attributes: Attributes, ...names: string[]): string | null => {
  for (const name of names) {
    const value = attributes.get(name.toLowerCase())?.[0];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
};

const all = (attributes: Attributes, name: string): string[] => (attributes.get(name.toLowerCase()) ?? []).filter((value): value is string => typeof value === 'string');

/**
 * A Windows FILETIME (100 ns ticks since 1601-01-01 UTC) as an ISO date; null for 0 and "never" (2^63-1).
 * Before: `"133488000000000000"`; after: `"2024-01-01T00:00:00.000Z"`.
 */
export function fromFileTime(value: string | null): string | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const ticks = BigInt(value);
  if (ticks === 0n || ticks >= 0x7fffffffffffffffn) return null;
  const milliseconds = Number(ticks / 10_000n) - 11_644_473_600_000;
  const date = new Date(milliseconds);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * An LDAP GeneralizedTime as an ISO date. Before: `"20240115093000.0Z"`; after: `"2024-01-15T09:30:00.000Z"`.
 */
export function fromGeneralizedTime(value: string | null): string | null {
  const match = value?.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})?(\d{2})?(?:[.,]\d+)?(Z|[+-]\d{4})?$/);
  if (!match) return null;
  const [, year, month, day, hour, minute = '00', second = '00', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An AD objectGUID (mixed-endian bytes) in its registry form: `{3f2504e0-4f89-11d3-9a0c-0305e82c3301}` without braces. */
export function formatGuid(bytes: Buffer): string | null {
  if (bytes.length !== 16) return null;
  const hex = (from: number, to: number, reverse: boolean) => {
    const slice = [...bytes.subarray(from, to)];
    return (reverse ? slice.reverse() : slice).map((byte) => byte.toString(16).padStart(2, '0')).join('');
  };
  return `${hex(0, 4, true)}-${hex(4, 6, true)}-${hex(6, 8, true)}-${hex(8, 10, false)}-${hex(10, 16, false)}`;
}

/** An objectSid in its string form, `S-1-5-21-…`. */
export function formatSid(bytes: Buffer): string | null {
  if (bytes.length < 8) return null;
  const count = bytes[1];
  if (bytes.length < 8 + count * 4) return null;
  const authority = bytes.readUIntBE(2, 6);
  const parts = Array.from({ length: count }, (_, index) => bytes.readUInt32LE(8 + index * 4));
  return ['S', bytes[0], authority, ...parts].join('-');
}

/** The DNS domain a DN lives in. Before: `"CN=PC1,OU=Laptops,DC=corp,DC=example,DC=com"`; after: `"corp.example.com"`. */
export function domainOfDn(dn: string): string | null {
  const parts = dn.split(/,(?=(?:[^\\]|\\.)*$)/).map((part) => part.trim()).filter((part) => /^dc=/i.test(part)).map((part) => part.slice(3));
  return parts.length ? parts.join('.').toLowerCase() : null;
}

/** The container path of an entry. Before: `"CN=PC1,OU=Laptops,OU=Paris,DC=corp,DC=com"`; after: `"OU=Laptops,OU=Paris,DC=corp,DC=com"`. */
export function parentOfDn(dn: string): string | null {
  const comma = dn.search(/(?<!\\),/);
  return comma < 0 ? null : dn.slice(comma + 1).trim();
}

const commonName = (dn: string): string => dn.match(/^\s*cn=((?:[^,\\]|\\.)+)/i)?.[1]?.replace(/\\(.)/g, '$1') ?? dn;

const administrativeGroups = /^(domain admins|enterprise admins|schema admins|administrators|admins)$/i;

/** The vendor's record as plain JSON: single values unwrapped, binary ids in their text form. */
export function rawRecord(entry: Entry): Record<string, unknown> {
  const raw: Record<string, unknown> = { dn: entry.dn };
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn') continue;
    const values = (Array.isArray(value) ? value : [value]).map((item) => {
      if (!Buffer.isBuffer(item)) return item;
      if (name.toLowerCase() === 'objectguid') return formatGuid(item);
      if (name.toLowerCase() === 'objectsid') return formatSid(item);
      return item.toString('base64');
    });
    raw[name] = values.length === 1 ? values[0] : values;
  }
  return raw;
}

function accountState(attributes: Attributes): { enabled: boolean | null; locked: boolean | null } {
  const control = first(attributes, 'userAccountControl');
  const flags = control && /^-?\d+$/.test(control) ? Number(control) : null;
  const lockoutTime = first(attributes, 'lockoutTime');
  const ipaLocked = first(attributes, 'nsAccountLock');
  // AD does not keep the LOCKOUT flag current (MS-ADTS); a non-zero lockoutTime is what marks a locked account.
  const locked = flags === null && lockoutTime === null ? null : Boolean(flags !== null && flags & lockedOut) || (lockoutTime !== null && lockoutTime !== '0');
  if (ipaLocked !== null) return { enabled: ipaLocked.toUpperCase() !== 'TRUE', locked };
  return { enabled: flags === null ? null : !(flags & accountDisabled), locked };
}

/** A person entry as inventory-user fields. */
export function userFields(entry: Entry): Record<string, unknown> {
  const attributes = attributesOf(entry);
  const groups = all(attributes, 'memberOf').map(commonName);
  const state = accountState(attributes);
  return {
    Username: first(attributes, 'sAMAccountName', 'uid'),
    Email: all(attributes, 'mail'),
    UserPrincipalName: first(attributes, 'userPrincipalName'),
    DisplayName: first(attributes, 'displayName', 'cn'),
    FirstName: first(attributes, 'givenName'),
    LastName: first(attributes, 'sn'),
    EmployeeId: first(attributes, 'employeeID', 'employeeNumber'),
    Domain: domainOfDn(entry.dn),
    Groups: groups,
    AdminStatus: groups.some((group) => administrativeGroups.test(group)),
    Location: first(attributes, 'physicalDeliveryOfficeName', 'l'),
    Title: first(attributes, 'title'),
    Department: first(attributes, 'department', 'departmentNumber'),
    CreatedTime: fromGeneralizedTime(first(attributes, 'whenCreated', 'createTimestamp')),
    LastLogOnTime: fromFileTime(first(attributes, 'lastLogonTimestamp')) ?? fromGeneralizedTime(first(attributes, 'krbLastSuccessfulAuth')),
    Enabled: state.enabled,
    Locked: state.locked,
    DistinguishedName: entry.dn,
  };
}

function operatingSystemType(name: string | null): string | null {
  if (!name) return null;
  if (/windows/i.test(name)) return 'Windows';
  if (/mac ?os|os x/i.test(name)) return 'macOS';
  if (/linux|ubuntu|debian|red ?hat|rhel|centos|suse|fedora|rocky|alma/i.test(name)) return 'Linux';
  return name.split(/\s+/)[0];
}

/** A computer entry as device fields. */
export function computerFields(entry: Entry): Record<string, unknown> {
  const attributes = attributesOf(entry);
  const dnsName = first(attributes, 'dNSHostName', 'fqdn');
  const shortName = first(attributes, 'cn') ?? dnsName?.split('.')[0] ?? null;
  const system = first(attributes, 'operatingSystem');
  const version = first(attributes, 'operatingSystemVersion', 'nsOsVersion');
  const control = first(attributes, 'userAccountControl');
  const flags = control && /^-?\d+$/.test(control) ? Number(control) : 0;
  const isServer = Boolean(flags & serverTrustAccount) || /server/i.test(system ?? '');
  return {
    Hostname: dnsName ?? shortName,
    Domain: dnsName?.includes('.') ? dnsName.slice(dnsName.indexOf('.') + 1).toLowerCase() : domainOfDn(entry.dn),
    'OS.Type': operatingSystemType(system),
    'OS.Version': version,
    // "10.0 (19045)" carries the build in parentheses.
    'OS.Build': version?.match(/\((\d+)\)/)?.[1] ?? null,
    'OS.FullOsString': [system, version].filter(Boolean).join(' ') || null,
    DeviceModel: first(attributes, 'nsHardwarePlatform'),
    Category: system || control ? (isServer ? 'Server' : 'Workstation') : null,
    LastSeen: fromFileTime(first(attributes, 'lastLogonTimestamp')),
    FirstSeen: fromGeneralizedTime(first(attributes, 'whenCreated', 'createTimestamp')),
    Enabled: control ? !(flags & accountDisabled) : null,
    DistinguishedName: entry.dn,
    OrganizationalUnit: parentOfDn(entry.dn),
  };
}
