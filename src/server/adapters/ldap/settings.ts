import type { ConnectionConfig } from '../engine.js';

/** Connection security as the LDAP adapters' forms name it. */
export type LdapSecurity = 'ldaps' | 'starttls' | 'plain';

/** What one directory flavour reads by default: the filters its administrators would write. */
type DirectoryProfile = { userFilter: string; computerFilter: string | null; disabledClause: string | null };

// Active Directory: a computer is also objectClass=user, hence the negation. The bitwise matching rule
// 1.2.840.113556.1.4.803 (LDAP_MATCHING_RULE_BIT_AND) is understood by AD and by OpenLDAP alike.
const profiles: Record<string, DirectoryProfile> = {
  'active-directory': {
    userFilter: '(&(objectClass=user)(!(objectClass=computer)))',
    computerFilter: '(objectClass=computer)',
    disabledClause: '(!(userAccountControl:1.2.840.113556.1.4.803:=2))',
  },
  freeipa: { userFilter: '(&(objectClass=posixAccount)(uid=*))', computerFilter: '(objectClass=ipaHost)', disabledClause: '(!(nsAccountLock=TRUE))' },
  openldap: { userFilter: '(objectClass=inetOrgPerson)', computerFilter: null, disabledClause: null },
};

/** The connection options of an LDAP adapter, checked and with defaults applied. */
export type LdapSettings = {
  hosts: string[];
  security: LdapSecurity;
  port: number;
  baseDn: string;
  bindDn: string;
  password: string;
  userFilter: string | null;
  computerFilter: string | null;
  pageSize: number;
  verifySsl: boolean;
  customCa: string | null;
  timeoutMs: number;
};

/** A configuration the engine cannot run with; its message names the field to fix. */
export class LdapConfigError extends Error {}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

function withDisabledClause(filter: string, clause: string | null, includeDisabled: boolean): string {
  return clause && !includeDisabled ? `(&${filter}${clause})` : filter;
}

/**
 * Reads an LDAP adapter's connection options; throws LdapConfigError for a missing or impossible value.
 * Before: `{hosts: ["dc01"], security: "ldaps", base_dn: "DC=corp,DC=example", auth: {...}}` for active-directory;
 * after: `{port: 636, userFilter: "(&(&(objectClass=user)…)(!(userAccountControl:…:=2)))", pageSize: 1000, …}`.
 */
export function readLdapSettings(adapter: string, config: ConnectionConfig): LdapSettings {
  const profile = profiles[adapter] ?? profiles.openldap;
  const hosts = (Array.isArray(config.hosts) ? config.hosts : [config.hosts]).map(text).filter((host): host is string => host !== null);
  if (!hosts.length) throw new LdapConfigError('The "Directory servers" field lists no host.');
  const security = (text(config.security) ?? 'ldaps') as LdapSecurity;
  if (!['ldaps', 'starttls', 'plain'].includes(security)) throw new LdapConfigError(`"Connection security" must be ldaps, starttls or plain, not ${security}.`);
  const port = typeof config.port === 'number' ? config.port : security === 'ldaps' ? 636 : 389;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new LdapConfigError(`The port ${String(config.port)} is not between 1 and 65535.`);
  const baseDn = text(config.base_dn);
  if (!baseDn) throw new LdapConfigError('The "Base DN" field is empty.');
  const auth = (config.auth ?? {}) as Record<string, unknown>;
  const bindDn = text(auth.bind_dn);
  const password = typeof auth.password === 'string' ? auth.password : '';
  // An empty password turns a simple bind into an unauthenticated one that many servers accept: refuse it.
  if (!bindDn || !password) throw new LdapConfigError('The bind user and its password are both required.');
  const includeDisabled = config.include_disabled === true;
  const userFilter = config.fetch_users === false ? null : withDisabledClause(text(config.user_filter) ?? profile.userFilter, profile.disabledClause, includeDisabled);
  const configuredComputers = text(config.computer_filter) ?? profile.computerFilter;
  const computerFilter = config.fetch_computers === false || !configuredComputers ? null : withDisabledClause(configuredComputers, profile.disabledClause, includeDisabled);
  const pageSize = typeof config.page_size === 'number' && config.page_size >= 1 ? Math.min(Math.floor(config.page_size), 5000) : 500;
  const seconds = typeof config.timeout_seconds === 'number' && config.timeout_seconds > 0 ? config.timeout_seconds : 60;
  return {
    hosts, security, port, baseDn, bindDn, password, userFilter, computerFilter, pageSize,
    verifySsl: config.verify_ssl !== false,
    customCa: text(config.custom_ca),
    timeoutMs: Math.round(seconds * 1000),
  };
}
