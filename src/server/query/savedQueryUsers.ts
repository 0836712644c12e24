import type { Queryable } from '../db/database.js';
import { actionKind } from '../actions/actionStore.js';
import { chartKind, widgetKind } from '../dashboards/dashboardStore.js';
import { reportKind } from '../reports/reportDocuments.js';
import { policyKind, profileKind } from '../security/securityStore.js';
import { savedQueryKind } from './savedQueryStore.js';

/** What uses a saved query: the kind as a message names it, its id and its name. */
export type SavedQueryUser = { kind: string; id: number; name: string };

// The documents that may hold `Query is <id>` in a query text, or name a saved query by id, and what a message calls them.
const userKinds: Record<string, string> = {
  [savedQueryKind]: 'saved query', [actionKind]: 'action', [chartKind]: 'chart', [widgetKind]: 'widget',
  [reportKind]: 'report', [profileKind]: 'asset profile', [policyKind]: 'security policy',
};
// Documents whose owner alone sees them (unless public): named to their owner, counted for anyone else.
const ownedKinds = new Set([savedQueryKind, reportKind]);

/**
 * The company's documents that use saved query `id`: any text of theirs holding `Query is <id>` (a query, a scope,
 * a report section, a chart's query), or an id field naming it (an action's scope, a chart's saved query, a
 * widget's series, a report section's saved query or chart). Another user's private saved queries and reports are
 * answered as `hidden` (how many), not by name.
 */
export async function savedQueryUsers(db: Queryable, companyId: number, userId: number, id: number): Promise<{ users: SavedQueryUser[]; hidden: number }> {
  const rows = await db.query<{ kind: string; id: number; name: string; is_public: boolean | null; owner_id: number | null }>(
    `select kind, id, coalesce(document->>'name', '') as name, (document->>'is_public')::boolean as is_public, (document->>'owner_id')::int as owner_id
       from resources
      where company_id = $1 and kind = any($2::text[]) and id <> $3
        and (document::text ~* $4
          or (kind = $5 and document->'scope'->'saved_query' = to_jsonb($3::int))
          or (kind = $6 and document->'group_by_query' = to_jsonb($3::int))
          or (kind = $7 and coalesce(document->'saved_queries', '[]'::jsonb) @> to_jsonb(array[$3::int]))
          or (kind = $8 and jsonb_path_exists(document, '$.sections[*] ? (@.saved_query == $id || @.widget.saved_queries[*] == $id)', jsonb_build_object('id', $3::int))))
      order by kind, id`,
    [companyId, Object.keys(userKinds), id, `query\\s+is\\s+${id}([^0-9]|$)`, actionKind, chartKind, widgetKind, reportKind],
  );
  const visible = (row: (typeof rows)[number]) => !ownedKinds.has(row.kind) || row.is_public === true || row.owner_id === null || row.owner_id === userId;
  return {
    users: rows.filter(visible).map((row) => ({ kind: userKinds[row.kind], id: row.id, name: row.name })),
    hidden: rows.filter((row) => !visible(row)).length,
  };
}

/** "the action 'Isolate laptops', the report 'Weekly' and 2 private items of other users" */
export function describeUsers(users: SavedQueryUser[], hidden: number): string {
  const named = users.slice(0, 10).map((user) => `the ${user.kind} '${user.name}'`);
  const more = users.length - named.length + hidden;
  const parts = more ? [...named, `${more} more item${more === 1 ? '' : 's'}${hidden ? ' (some private to other users)' : ''}`] : named;
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
}
