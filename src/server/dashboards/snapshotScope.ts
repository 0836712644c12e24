import { parseQuery, printQuery, QuerySyntaxError, type QueryNode } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { compileQuery, type CompiledQuery } from '../query/compileQuery.js';
import { expandSavedQueries } from '../query/savedQueries.js';

/** A published snapshot: the discovery that wrote it and when it started. */
export type Snapshot = { id: number; start_time: Date };

// Widget SQL runs under the same statement timeout as inventory searches: a costly regular expression in a
// widget's query cannot hold the database.
export const widgetStatementTimeoutMs = 15_000;

/** The company's newest published snapshot, or null before the first discovery completes. */
export async function latestSnapshot(db: Queryable, companyId: number): Promise<Snapshot | null> {
  const [row] = await db.query<Snapshot>("select id, start_time from discoveries where company_id = $1 and status = 'done' order by id desc limit 1", [companyId]);
  return row ?? null;
}

/**
 * The snapshot a widget reads as "the latest": the one its context names (a report run against an older snapshot)
 * or else the company's newest.
 */
export async function widgetSnapshot(context: { db: Queryable; companyId: number; snapshot?: Snapshot }): Promise<Snapshot | null> {
  return context.snapshot ?? latestSnapshot(context.db, context.companyId);
}

/**
 * The company's published snapshots that started at most `days` days ago, oldest first; with `upTo` (a report on an
 * older snapshot), those of the `days` days up to and including that snapshot instead.
 */
export async function recentSnapshots(db: Queryable, companyId: number, days: number, upTo?: Snapshot): Promise<Snapshot[]> {
  return db.query<Snapshot>(
    `select id, start_time from discoveries
      where company_id = $1 and status = 'done' and ($3::int is null or id <= $3) and start_time >= coalesce($4::timestamptz, now()) - make_interval(days => $2)
      order by id`,
    [companyId, days, upTo?.id ?? null, upTo?.start_time.toISOString() ?? null],
  );
}

/** The newest published snapshot that started at least `days` days before `before`, or null. */
export async function snapshotDaysBefore(db: Queryable, companyId: number, before: Date, days: number): Promise<Snapshot | null> {
  const [row] = await db.query<Snapshot>(
    "select id, start_time from discoveries where company_id = $1 and status = 'done' and start_time <= $2::timestamptz - make_interval(days => $3) order by id desc limit 1",
    [companyId, before.toISOString(), days],
  );
  return row ?? null;
}

const savedQueryKind = 'cartograph:entities/saved-query';

/** The text of one of the company's saved queries, or null. */
export async function savedQueryText(db: Queryable, companyId: number, id: number): Promise<{ name: string; text: string; type: string } | null> {
  const [row] = await db.query<{ name: string; text: string; type: string }>(
    "select document->>'name' as name, document->>'text' as text, coalesce(document->>'type', 'device') as type from resources where kind = $1 and company_id = $2 and id = $3",
    [savedQueryKind, companyId, id],
  );
  return row ?? null;
}

/**
 * Compiles query text (saved queries expanded) into a SQL condition over `fields`, numbering parameters from
 * `firstParameter`. Empty text matches everything. Syntax errors become a 400 on `field`.
 */
export async function compileCondition(db: Queryable, companyId: number, text: string, firstParameter: number, field = 'query'): Promise<CompiledQuery> {
  if (!text.trim()) return { sql: 'true', params: [], table: 'snapshot_assets' };
  try {
    const loadText = async (id: number) => (await savedQueryText(db, companyId, id))?.text ?? null;
    return compileQuery(await expandSavedQueries(parseQuery(text), loadText), { firstParameter });
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new HttpError(400, { [field]: [error.message] });
    if (error instanceof HttpError && field !== 'query' && 'query' in error.body) throw new HttpError(400, { [field]: (error.body as Record<string, string[]>).query });
    throw error;
  }
}

/** Joins query texts with AND, parenthesized only where needed: `a`, `b OR c` → `a AND (b OR c)`. */
export function andQueries(...texts: (string | null | undefined)[]): string {
  const parts = texts.map((text) => text?.trim() ?? '').filter(Boolean);
  if (parts.length < 2) return parts[0] ?? '';
  try {
    const trees = parts.map((text) => parseQuery(text));
    return printQuery(trees.slice(1).reduce<QueryNode>((left, right) => ({ kind: 'and', left, right }), trees[0]));
  } catch {
    // Text that does not parse is refused where it is saved; joining it verbatim keeps that error visible.
    return parts.map((text) => `(${text})`).join(' AND ');
  }
}

/** Checks query text without running it, so a widget or chart with a broken query is refused when saved. */
export async function checkQueryText(db: Queryable, companyId: number, text: string, field: string): Promise<void> {
  await compileCondition(db, companyId, text, 1, field);
}
