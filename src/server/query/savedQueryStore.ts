import { parseQuery, QuerySyntaxError } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { expandSavedQueries } from './savedQueries.js';

export const savedQueryKind = 'cartograph:entities/saved-query';

/** A saved query as stored: the schema's fields plus its owner (legacy rows without one are public). */
export type SavedQueryDocument = { name: string; text: string; type?: string; tags?: string[]; is_public?: boolean; owner_id?: number; user_full_name?: string };

/** SQL for the rows a caller may see: public ones, ownerless ones and their own (placeholders name company and caller). */
export function visibleToCaller(company: string, caller: string): string {
  return `kind = '${savedQueryKind}' and company_id = ${company} and (coalesce((document->>'is_public')::boolean, false) or document->'owner_id' is null or (document->>'owner_id')::int = ${caller})`;
}

/** The text of a saved query of the company, or null. */
export async function loadSavedQueryText(db: Queryable, companyId: number, id: number): Promise<string | null> {
  const [row] = await db.query<{ text: string }>("select document->>'text' as text from resources where kind = $1 and company_id = $2 and id = $3", [savedQueryKind, companyId, id]);
  return row?.text ?? null;
}

/**
 * Checks query text before it is saved: it parses (errors carry the position), every `Query is <id>` names an
 * existing saved query of the company, and following the references never comes back to the query being saved
 * (`selfId`, when it already exists) or loops anywhere else.
 */
export async function checkSavedQueryText(db: Queryable, companyId: number, text: string, selfId: number | null): Promise<void> {
  try {
    const load = async (id: number) => (id === selfId ? text : loadSavedQueryText(db, companyId, id));
    await expandSavedQueries(parseQuery(text), load, selfId === null ? [] : [selfId]);
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new HttpError(400, { text: [error.message], position: [String(error.position)] });
    if (error instanceof HttpError && 'query' in error.body) throw new HttpError(400, { text: (error.body as Record<string, string[]>).query });
    throw error;
  }
}
