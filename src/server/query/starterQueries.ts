import type { Queryable } from '../db/database.js';
import { savedQueryKind, type SavedQueryDocument } from './savedQueryStore.js';

/**
 * Starter saved queries of the user inventory. Security policies score devices only (a policy's condition runs on
 * the device inventory and makes up device scores), so the controls that ask about people — a leaver whose account
 * still signs in — ship as public saved queries instead: listed under Saved queries, usable in `Query is <id>`, in
 * a dashboard's query widgets and in reports. The conditions are plain query-language text the user edits like their own.
 */
export const starterQueries: Required<Pick<SavedQueryDocument, 'name' | 'text' | 'type' | 'tags'>>[] = [
  {
    // An HR system (BambooHR, Workday) says the person left; a directory or identity provider still has the account
    // enabled. Correlation joins the two by employee id and e-mail (userRules.ts). CIS Controls v8 safeguard 5.3:
    // Disable Dormant Accounts.
    name: 'Leavers with an active account', type: 'user', tags: ['starter', 'cis-5.3'],
    text: 'Employment.Status = terminated AND Enabled = true',
  },
];

/**
 * Adds the starter queries a company lacks (by name, among its public and ownerless queries) as public queries of
 * `ownerId` (null: ownerless, anyone with the permission may change them). Answers how many it added.
 */
export async function addStarterQueries(db: Queryable, companyId: number, ownerId: number | null, ownerName = ''): Promise<number> {
  const existing = await db.query<{ name: string }>(
    "select lower(document->>'name') as name from resources where kind = $1 and company_id = $2", [savedQueryKind, companyId],
  );
  const missing = starterQueries.filter((query) => !existing.some((row) => row.name === query.name.toLowerCase()));
  for (const query of missing) {
    const document: SavedQueryDocument = { ...query, is_public: true, ...(ownerId === null ? {} : { owner_id: ownerId }), user_full_name: ownerName };
    await db.query('insert into resources (kind, company_id, document) values ($1, $2, $3)', [savedQueryKind, companyId, JSON.stringify(document)]);
  }
  return missing.length;
}
