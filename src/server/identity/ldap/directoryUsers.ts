import type { Client, Entry } from 'ldapts';
import { DirectoryError, openDirectory } from '../../adapters/ldap/directoryConnection.js';
import type { OutboundPolicy } from '../../outbound/guard.js';
import { directorySettingsOf, type LdapConfiguration } from './ldapConfigurations.js';

/** A user as the directory describes them, with the DNs of their groups. */
export type DirectoryUser = { dn: string; username: string; email: string; firstName: string; lastName: string; groups: string[] };

/** RFC 4515 escaping of a value put into a filter, so a typed `*)(uid=*` stays a literal name. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (character) => `\\${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const first = (entry: Entry, attribute: string): string => {
  if (!attribute) return '';
  const key = Object.keys(entry).find((name) => name.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? '' : Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
};

const all = (entry: Entry, attribute: string): string[] => {
  if (!attribute) return [];
  const key = Object.keys(entry).find((name) => name.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((item) => (Buffer.isBuffer(item) ? item.toString('utf8') : String(item)));
};

const noSignal = () => new AbortController().signal;

/** A client bound with the service account, through the outbound guard's policy; throws DirectoryError with what to fix. */
export async function bindServiceAccount(configuration: LdapConfiguration, outbound: OutboundPolicy): Promise<Client> {
  return (await openDirectory(directorySettingsOf(configuration, configuration.bind_dn, configuration.bind_password), noSignal(), outbound)).client;
}

/**
 * Finds the user `username` names (`*` for a sample: any user the filter finds) and reads their groups: the
 * member-of attribute and the groups under the group search base that name them. Null when none or several match.
 */
export async function findDirectoryUser(client: Client, configuration: LdapConfiguration, username: string | null): Promise<DirectoryUser | null> {
  const filter = configuration.user_filter.replaceAll('{username}', username === null ? '*' : escapeFilterValue(username));
  const attributes = [configuration.username_attribute, configuration.email_attribute, configuration.first_name_attribute, configuration.last_name_attribute, configuration.member_of_attribute].filter(Boolean);
  const { searchEntries } = await client.search(configuration.user_search_base, { scope: 'sub', filter, attributes, sizeLimit: username === null ? 1 : 2 });
  if (searchEntries.length !== 1 && username !== null) return null;
  const entry = searchEntries[0];
  if (!entry) return null;
  const found = first(entry, configuration.username_attribute) || username || '';
  const groups = new Set(all(entry, configuration.member_of_attribute));
  if (configuration.group_search_base && configuration.group_filter) {
    const groupFilter = configuration.group_filter.replaceAll('{dn}', escapeFilterValue(entry.dn)).replaceAll('{username}', escapeFilterValue(found));
    const { searchEntries: groupEntries } = await client.search(configuration.group_search_base, { scope: 'sub', filter: groupFilter, attributes: ['1.1'] });
    for (const group of groupEntries) groups.add(group.dn);
  }
  return {
    dn: entry.dn, username: found, email: first(entry, configuration.email_attribute), firstName: first(entry, configuration.first_name_attribute),
    lastName: first(entry, configuration.last_name_attribute), groups: [...groups],
  };
}

/** Whether the directory accepts the user's password: a bind as their DN (an empty password is never tried). */
export async function passwordMatches(configuration: LdapConfiguration, userDn: string, password: string, outbound: OutboundPolicy): Promise<boolean> {
  if (!password) return false;
  try {
    const { client } = await openDirectory(directorySettingsOf(configuration, userDn, password), noSignal(), outbound);
    await client.unbind().catch(() => undefined);
    return true;
  } catch (error) {
    if (error instanceof DirectoryError && error.failure.reason === 'unauthorized') return false;
    throw error;
  }
}

/** The Cartograph groups a directory user gets: the mappings whose DN is one of their groups (case-insensitive). */
export function mappedGroupIds(configuration: LdapConfiguration, user: DirectoryUser): number[] {
  const memberOf = new Set(user.groups.map((dn) => dn.toLowerCase().replace(/\s*,\s*/g, ',')));
  return [...new Set(configuration.group_mappings.filter((mapping) => memberOf.has(mapping.ldap_group.toLowerCase().replace(/\s*,\s*/g, ','))).map((mapping) => mapping.group_id))];
}
