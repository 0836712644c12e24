import type { Queryable } from '../db/database.js';
import { Invalid, notFound } from '../errors.js';

import type { Caller } from '../identity/callers.js';
import { containsPattern } from '../db/likePatterns.js';

export const dashboardKind = 'cartograph:entities/dashboard';
export const chartKind = 'cartograph:entities/chart';
export const widgetKind = 'cartograph:entities/widget';

export type Document = Record<string, unknown>;
export type StoredRow = { id: number; document: Document; created_at: Date; updated_at: Date };

/** A document as the API answers it: id, the stored fields, and the timestamps. */
export function describeRow(row: StoredRow): Document {
  return { id: row.id, ...row.document, created_at: row.created_at, updated_at: row.updated_at };
}

// A dashboard is visible to its company when public, to its author, and to members of the groups it names.
const visibleSql = (userParameter: string) => `((document->>'is_public')::boolean is not false
  or (document->>'created_by')::int = ${userParameter}
  or exists (select 1 from user_groups ug where ug.user_id = ${userParameter} and document->'groups' @> to_jsonb(ug.group_id)))`;

/** The caller's dashboards (visible ones only), in menu order, optionally filtered by text. */
export async function listDashboards(db: Queryable, caller: Caller, options: { search?: string; limit: number; offset: number }): Promise<{ count: number; rows: StoredRow[] }> {
  const filter = `kind = $1 and company_id = $2 and ${visibleSql('$3')} and ($4::text is null or document->>'name' ilike $4 or document->>'description' ilike $4)`;
  const params = [dashboardKind, caller.companyId, caller.userId, options.search ? containsPattern(options.search) : null];
  const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
  const rows = await db.query<StoredRow>(
    `select id, document, created_at, updated_at from resources where ${filter} order by (document->>'position')::int nulls last, id limit $5 offset $6`,
    [...params, options.limit, options.offset],
  );
  return { count, rows };
}

/** One dashboard the caller may see, or 404 (another company's, or a private one, is indistinguishable from none). */
export async function loadDashboard(db: Queryable, caller: Caller, id: number): Promise<StoredRow> {
  const [row] = await db.query<StoredRow>(
    `select id, document, created_at, updated_at from resources where kind = $1 and company_id = $2 and id = $4 and ${visibleSql('$3')}`,
    [dashboardKind, caller.companyId, caller.userId, id],
  );
  if (!row) throw notFound();
  return row;
}

/** A chart or widget of the caller's company on a dashboard the caller may see, or 404. */
export async function loadItem(db: Queryable, caller: Caller, kind: string, id: number): Promise<StoredRow> {
  const [row] = await db.query<StoredRow>('select id, document, created_at, updated_at from resources where kind = $1 and company_id = $2 and id = $3', [kind, caller.companyId, id]);
  if (!row) throw notFound();
  await loadDashboard(db, caller, Number(row.document.dashboard));
  return row;
}

/** Charts or widgets of the dashboards the caller may see, optionally of one dashboard. */
export async function listItems(db: Queryable, caller: Caller, kind: string, options: { dashboard?: number; search?: string; limit: number; offset: number }): Promise<{ count: number; rows: StoredRow[] }> {
  const filter = `kind = $1 and company_id = $2 and ($3::int is null or (document->>'dashboard')::int = $3)
    and ($4::text is null or document->>'name' ilike $4 or coalesce(document->>'description', '') ilike $4)
    and (document->>'dashboard')::int in (select id from resources where kind = $5 and company_id = $2 and ${visibleSql('$6')})`;
  const params = [kind, caller.companyId, options.dashboard ?? null, options.search ? containsPattern(options.search) : null, dashboardKind, caller.userId];
  const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
  const rows = await db.query<StoredRow>(`select id, document, created_at, updated_at from resources where ${filter} order by id limit $7 offset $8`, [...params, options.limit, options.offset]);
  return { count, rows };
}

/** Inserts a document of the caller's company. */
export async function insertDocument(db: Queryable, kind: string, companyId: number, document: Document): Promise<StoredRow> {
  const [row] = await db.query<StoredRow>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id, document, created_at, updated_at', [kind, companyId, JSON.stringify(document)]);
  return row;
}

/** Replaces a stored document. */
export async function updateDocument(db: Queryable, id: number, document: Document): Promise<StoredRow> {
  const [row] = await db.query<StoredRow>('update resources set document = $2, updated_at = now() where id = $1 returning id, document, created_at, updated_at', [id, JSON.stringify(document)]);
  return row;
}

/** Refuses a dashboard name the company already uses (names pick dashboards in the menu). */
export async function checkDashboardName(db: Queryable, companyId: number, name: string, exceptId: number | null): Promise<void> {
  const taken = await db.query("select 1 from resources where kind = $1 and company_id = $2 and lower(document->>'name') = lower($3) and id <> coalesce($4::int, 0)", [dashboardKind, companyId, name, exceptId]);
  if (taken.length) throw new Invalid({ name: ['A dashboard with this name already exists.'] });
}

/** Refuses group ids that are not groups of the company. */
export async function checkGroups(db: Queryable, companyId: number, groupIds: number[]): Promise<void> {
  if (!groupIds.length) return;
  const found = await db.query<{ id: number }>('select id from groups where company_id = $1 and id = any($2::int[])', [companyId, groupIds]);
  const missing = groupIds.find((id) => !found.some((row) => row.id === id));
  if (missing !== undefined) throw new Invalid({ groups: [`Invalid pk "${missing}" - object does not exist.`] });
}

/** The names of the given groups, as `hr_groups`. */
export async function groupNames(db: Queryable, groupIds: number[]): Promise<{ id: number; name: string }[]> {
  if (!groupIds.length) return [];
  return db.query<{ id: number; name: string }>('select id, name from groups where id = any($1::int[]) order by name', [groupIds]);
}

/** Makes one dashboard the company's default, clearing the flag on every other. */
export async function setDefaultDashboard(db: Queryable, companyId: number, id: number): Promise<void> {
  await db.query(
    `update resources set document = jsonb_set(document, '{is_default}', to_jsonb(id = $3)), updated_at = now()
      where kind = $1 and company_id = $2 and ((document->>'is_default')::boolean is true or id = $3)`,
    [dashboardKind, companyId, id],
  );
}

/** Deletes a dashboard with its charts and widgets. */
export async function deleteDashboard(db: Queryable, companyId: number, id: number): Promise<void> {
  await db.query("delete from resources where kind = any($1::text[]) and company_id = $2 and (document->>'dashboard')::int = $3", [[chartKind, widgetKind], companyId, id]);
  await db.query('delete from resources where id = $1', [id]);
}
