import { parseQuery, QuerySyntaxError } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { DomainError, Invalid } from '../errors.js';
import { expandSavedQueries } from './savedQueries.js';

export const savedQueryKind = 'cartograph:entities/saved-query';

/** A saved query as stored: the schema's fields plus its owner (legacy rows without one are public). */
export type SavedQueryDocument = { name: string; text: string; type?: string; tags?: string[]; is_public?: boolean; owner_id?: number; user_full_name?: string };

/** SQL for the rows a caller may see: public ones, ownerless ones and their own (placeholders name company and caller). */
export function visibleToCaller(company: string, caller: string): string {
  return `kind = '${savedQueryKind}' and company_id = ${company} and (coalesce((document->>'is_public')::boolean, false) or document->'owner_id' is null or (document->>'owner_id')::int = ${caller})`;
}

/**
 * Whose saved queries a query may expand: those of the company that `userId` may read (public ones, ownerless ones
 * and their own). Interactive requests name the caller; background work (a scheduled action, a discovery scoring
 * its policies and profiles, a dashboard warmed after a publish, a scheduled report) names the owner of what runs,
 * so it expands exactly what that owner could expand by hand. `userId` null (a document saved before owners were
 * recorded) reads the public and ownerless queries only.
 */
export type QueryReader = { companyId: number; userId: number | null };

/** A saved query the reader may read: its name, text and inventory, or null (missing, or another user's private one). */
export async function loadSavedQuery(db: Queryable, reader: QueryReader, id: number): Promise<{ name: string; text: string; type: string } | null> {
  const [row] = await db.query<{ name: string; text: string; type: string }>(
    `select document->>'name' as name, document->>'text' as text, coalesce(document->>'type', 'device') as type from resources where id = $3 and ${visibleToCaller('$1', '$2::int')}`,
    [reader.companyId, reader.userId, id],
  );
  return row ?? null;
}

/** The text of a saved query the reader may read, or null. */
export async function loadSavedQueryText(db: Queryable, reader: QueryReader, id: number): Promise<string | null> {
  return (await loadSavedQuery(db, reader, id))?.text ?? null;
}

/**
 * Checks query text before it is saved: it parses (errors carry the position), every `Query is <id>` names a
 * saved query the saver may read, and following the references never comes back to the query being saved
 * (`selfId`, when it already exists) or loops anywhere else.
 */
export async function checkSavedQueryText(db: Queryable, reader: QueryReader, text: string, selfId: number | null): Promise<void> {
  try {
    const load = async (id: number) => (id === selfId ? text : loadSavedQueryText(db, reader, id));
    await expandSavedQueries(parseQuery(text), load, selfId === null ? [] : [selfId]);
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new Invalid({ text: [error.message], position: [String(error.position)] });
    if (error instanceof DomainError && 'query' in error.body) throw new Invalid({ text: (error.body as Record<string, string[]>).query });
    throw error;
  }
}
