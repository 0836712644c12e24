import { keepUnchangedSecrets, maskSecrets, openSecrets, sealSecrets } from '../auth/secretFields.js';
import { secretRuleOf } from '../auth/secretRule.js';
import { schemaById } from '../http/validators.js';
import type { Queryable } from '../db/database.js';
import { loadSettingsDocument, saveSettingsDocument } from '../settings/settingsStore.js';

export const ssoSettingsKind = 'cartograph:settings/sso-configuration';

export type GroupMapping = { claim_value: string; group: string };
export type SsoSettings = {
  enabled: boolean;
  protocol: 'oidc' | 'saml';
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  username_claim: string;
  group_claim: string;
  group_mappings: GroupMapping[];
  saml_entry_point: string;
  saml_idp_certificate: string;
  saml_idp_issuer: string;
  saml_sp_entity_id: string;
};

export const defaultSsoSettings: SsoSettings = {
  enabled: false, protocol: 'oidc', issuer: '', client_id: '', client_secret: '', scopes: 'openid email profile', username_claim: 'preferred_username', group_claim: 'groups', group_mappings: [],
  saml_entry_point: '', saml_idp_certificate: '', saml_idp_issuer: '', saml_sp_entity_id: '',
};

// The client secret, held to the issuer it was saved for (see secretRule.ts).
const secretRule = secretRuleOf(schemaById(ssoSettingsKind));
const secretFields = secretRule.secretFields;

/** A company's single sign-on settings as stored: the client secret sealed. */
const loadStored = (db: Queryable, companyId: number) => loadSettingsDocument(db, companyId, ssoSettingsKind, defaultSsoSettings);

/** The settings as the API answers them: the client secret masked. */
export async function readSsoSettings(db: Queryable, companyId: number): Promise<SsoSettings> {
  return maskSecrets(await loadStored(db, companyId), secretFields) as SsoSettings;
}

/** The settings the sign-in runs with: the client secret opened. Never log the result. */
export async function openSsoSettings(db: Queryable, secretsKey: Buffer, companyId: number): Promise<SsoSettings> {
  return openSecrets(secretsKey, await loadStored(db, companyId), secretFields) as SsoSettings;
}

/** Saves the settings; a masked secret sent back by the form keeps the stored one. Answers them masked. */
export async function writeSsoSettings(db: Queryable, secretsKey: Buffer, companyId: number, settings: SsoSettings): Promise<SsoSettings> {
  const kept = keepUnchangedSecrets(settings, await openSsoSettings(db, secretsKey, companyId), secretRule) as SsoSettings;
  await saveSettingsDocument(db, companyId, ssoSettingsKind, sealSecrets(secretsKey, kept, secretFields));
  return maskSecrets(kept, secretFields) as SsoSettings;
}

/** The companies whose single sign-on is switched on (active companies only). */
export async function companiesWithSso(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ company_id: number }>(
    `select r.company_id from resources r join companies c on c.id = r.company_id
      where r.kind = $1 and c.is_active and (r.document->>'enabled')::boolean order by r.company_id`,
    [ssoSettingsKind],
  );
  return rows.map((row) => row.company_id);
}
