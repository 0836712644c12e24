import type { Queryable } from '../../db/database.js';
import { keepUnchangedSecrets, maskSecrets, openSecrets, sealSecrets } from '../../auth/secretFields.js';
import { secretRuleOf } from '../../auth/secretRule.js';
import { schemaById } from '../../http/validators.js';
import type { LdapSettings } from '../../adapters/ldap/settings.js';

/** LDAP sign-in directories, several per company, stored as rows of the resources table under this kind. */
export const ldapConfigurationKind = 'cartograph:settings/ldap-configuration';

export type LdapConfiguration = {
  name: string; enabled: boolean; url: string; starttls: boolean; ca_certificate: string; verify_certificate: boolean;
  bind_dn: string; bind_password: string; user_search_base: string; user_filter: string;
  username_attribute: string; email_attribute: string; first_name_attribute: string; last_name_attribute: string;
  member_of_attribute: string; group_search_base: string; group_filter: string;
  group_mappings: { ldap_group: string; group_id: number }[];
};

export type StoredLdapConfiguration = LdapConfiguration & { id: number; company_id: number };

// The bind password, held to the directory it was saved for (its URL and STARTTLS: see secretRule.ts).
const secretRule = secretRuleOf(schemaById(ldapConfigurationKind));
const secretFields = secretRule.secretFields;
const lookupTimeoutMs = 10_000;

type Row = { id: number; company_id: number; document: LdapConfiguration };

const opened = (secretsKey: Buffer, row: Row): StoredLdapConfiguration =>
  ({ ...(openSecrets(secretsKey, row.document, secretFields) as LdapConfiguration), id: row.id, company_id: row.company_id });

/** The configuration as the API answers it: the bind password masked. */
export function maskLdapConfiguration(configuration: StoredLdapConfiguration): StoredLdapConfiguration {
  return maskSecrets(configuration, secretFields) as StoredLdapConfiguration;
}

export async function listLdapConfigurations(db: Queryable, secretsKey: Buffer, companyId: number | null): Promise<StoredLdapConfiguration[]> {
  const rows = await db.query<Row>(
    'select id, company_id, document from resources where kind = $1 and ($2::int is null or company_id = $2) order by id', [ldapConfigurationKind, companyId],
  );
  return rows.map((row) => opened(secretsKey, row));
}

export async function readLdapConfiguration(db: Queryable, secretsKey: Buffer, companyId: number, id: number): Promise<StoredLdapConfiguration | null> {
  const [row] = await db.query<Row>('select id, company_id, document from resources where kind = $1 and company_id = $2 and id = $3', [ldapConfigurationKind, companyId, id]);
  return row ? opened(secretsKey, row) : null;
}

/** Creates (id null) or replaces a configuration; a masked bind password keeps the stored one. */
export async function saveLdapConfiguration(db: Queryable, secretsKey: Buffer, companyId: number, id: number | null, submitted: LdapConfiguration): Promise<StoredLdapConfiguration | null> {
  const stored = id === null ? null : await readLdapConfiguration(db, secretsKey, companyId, id);
  if (id !== null && !stored) return null;
  const { id: _id, company_id: _company, ...plain } = { ...submitted, id: 0, company_id: 0 };
  const document = keepUnchangedSecrets({ ...plain, bind_password: plain.bind_password ?? '' }, stored, secretRule) as LdapConfiguration;
  const sealed = JSON.stringify(sealSecrets(secretsKey, document, secretFields));
  const [row] = id === null
    ? await db.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id', [ldapConfigurationKind, companyId, sealed])
    : await db.query<{ id: number }>('update resources set document = $4, updated_at = now() where kind = $1 and company_id = $2 and id = $3 returning id', [ldapConfigurationKind, companyId, id, sealed]);
  return maskLdapConfiguration({ ...document, id: row.id, company_id: companyId });
}

export async function deleteLdapConfiguration(db: Queryable, companyId: number, id: number): Promise<boolean> {
  return (await db.query('delete from resources where kind = $1 and company_id = $2 and id = $3 returning id', [ldapConfigurationKind, companyId, id])).length > 0;
}

/**
 * The adapter's connection settings for this directory, bound as `bindDn`/`password` (the service account, or the
 * user whose password is checked). Before: `ldaps://dc01:636`; after: `{hosts: ['dc01'], port: 636, security: 'ldaps'}`.
 */
export function directorySettingsOf(configuration: LdapConfiguration, bindDn: string, password: string): LdapSettings {
  const url = new URL(configuration.url);
  const secure = url.protocol === 'ldaps:';
  return {
    hosts: [url.hostname.replace(/^\[|\]$/g, '')],
    security: secure ? 'ldaps' : configuration.starttls ? 'starttls' : 'plain',
    port: url.port ? Number(url.port) : secure ? 636 : 389,
    baseDn: configuration.user_search_base, bindDn, password, userFilter: null, computerFilter: null, pageSize: 100,
    verifySsl: configuration.verify_certificate, customCa: configuration.ca_certificate || null, timeoutMs: lookupTimeoutMs,
  };
}
