import type { Queryable } from '../db/database.js';

// The settings pages' documents (discovery, actions, mail, syslog, SSO, feeds, token lifetime, …) are stored per
// company in the resources table, one row per company and kind (the page's schema id).

/** A company's stored settings document of the given kind, over the defaults (so new properties get their default). */
export async function loadSettingsDocument<T extends object>(db: Queryable, companyId: number, kind: string, defaults: T): Promise<T> {
  const [row] = await db.query<{ document: Partial<T> }>('select document from resources where kind = $1 and company_id = $2 order by id limit 1', [kind, companyId]);
  return { ...defaults, ...(row?.document ?? {}) };
}

/** Stores a company's settings document of the given kind (one row per company and kind). */
export async function saveSettingsDocument(db: Queryable, companyId: number, kind: string, document: object): Promise<void> {
  const updated = await db.query('update resources set document = $3, updated_at = now() where kind = $1 and company_id = $2 returning id', [kind, companyId, JSON.stringify(document)]);
  if (!updated.length) await db.query('insert into resources (kind, company_id, document) values ($1, $2, $3)', [kind, companyId, JSON.stringify(document)]);
}
