import type { Client, Entry } from 'ldapts';
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { DirectoryError, classifyDirectoryError, openDirectory } from './directoryConnection.js';
import { binaryAttributes, computerAttributes, computerFields, rawRecord, userAttributes, userFields } from './entryMapping.js';
import { LdapConfigError, readLdapSettings, type LdapSettings } from './settings.js';

type Search = { entity: 'user' | 'device'; filter: string; attributes: string[]; toFields: (entry: Entry) => Record<string, unknown> };

function searchesFor(settings: LdapSettings): Search[] {
  const searches: Search[] = [];
  if (settings.computerFilter) searches.push({ entity: 'device', filter: settings.computerFilter, attributes: computerAttributes, toFields: computerFields });
  if (settings.userFilter) searches.push({ entity: 'user', filter: settings.userFilter, attributes: userAttributes, toFields: userFields });
  return searches;
}

/**
 * Streams one filter's entries page by page (RFC 2696 paged results), so a domain of 100k accounts is never held
 * in memory at once and the server's size limit does not cut the answer short.
 */
async function* pagedEntries(client: Client, settings: LdapSettings, search: Search, context: FetchContext): AsyncGenerator<Entry> {
  const pages = client.searchPaginated(settings.baseDn, {
    scope: 'sub',
    filter: search.filter,
    attributes: search.attributes,
    explicitBufferAttributes: binaryAttributes,
    paged: { pageSize: settings.pageSize },
  });
  for await (const page of pages) {
    for (const entry of page.searchEntries) yield entry;
    // Leaving the loop ends the paged search (the generator's return abandons the remaining pages).
    if (context.signal.aborted) return;
  }
}

type Failure = Extract<ConnectivityResult, { ok: false }>;

function settingsOrFailure(adapter: string, config: FetchContext['config']): { settings: LdapSettings; failure: null } | { settings: null; failure: Failure } {
  try {
    return { settings: readLdapSettings(adapter, config), failure: null };
  } catch (error) {
    if (error instanceof LdapConfigError) return { settings: null, failure: { ok: false, reason: 'invalid_config', detail: error.message } };
    throw error;
  }
}

/** The LDAP / Active Directory engine: users and computers over ldap://, ldaps:// or StartTLS with a simple bind. */
export const ldapEngine: AdapterEngine = {
  name: 'ldap',

  async test({ adapter, config, signal, outbound }) {
    const { settings, failure } = settingsOrFailure(adapter, config);
    if (!settings) return failure;
    try {
      const { client, host } = await openDirectory(settings, signal, outbound);
      try {
        // Reading the base entry proves the base DN exists and that the bind user can see it.
        await client.search(settings.baseDn, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] });
        return { ok: true, detail: `Bound to ${host}:${settings.port} as ${settings.bindDn} and read ${settings.baseDn}.` };
      } catch (error) {
        return classifyDirectoryError(error, `${host}:${settings.port}`);
      } finally {
        await client.unbind().catch(() => undefined);
      }
    } catch (error) {
      return classifyDirectoryError(error, settings.hosts.join(', '));
    }
  },

  async *fetch(context) {
    const { settings, failure } = settingsOrFailure(context.adapter, context.config);
    if (!settings) throw new DirectoryError(failure);
    const { client, host } = await openDirectory(settings, context.signal, context.outbound);
    try {
      for (const search of searchesFor(settings)) {
        let count = 0;
        try {
          for await (const entry of pagedEntries(client, settings, search, context)) {
            count += 1;
            const record: FetchedRecord = { entity: search.entity, fields: search.toFields(entry), raw: rawRecord(entry) };
            yield record;
          }
        } catch (error) {
          const failed = classifyDirectoryError(error, `${host}:${settings.port}`);
          throw new DirectoryError({ ...failed, detail: `Reading ${search.entity === 'user' ? 'users' : 'computers'} with ${search.filter} stopped after ${count} entries: ${failed.detail}` });
        }
        if (context.signal.aborted) return;
      }
    } finally {
      await client.unbind().catch(() => undefined);
    }
  },
};
