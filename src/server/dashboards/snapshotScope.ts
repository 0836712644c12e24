import { parseQuery, printQuery, type QueryNode } from '../../core/query/index.js';
import type { Queryable } from '../db/database.js';
import { DomainError, Invalid } from '../errors.js';
import { queryCondition, relationOptions } from '../inventory/search.js';
import { readableSnapshot, type PeriodSnapshot, type Snapshot } from '../inventory/snapshots.js';
import type { CompiledQuery } from '../query/compileQuery.js';
import { loadSavedQuery, type QueryReader } from '../query/savedQueryStore.js';


// Widget SQL runs under the same statement timeout as inventory searches: a costly regular expression in a
// widget's query cannot hold the database.
export const widgetStatementTimeoutMs = 15_000;

/**
 * The snapshot a widget reads as "the latest": the one its context names (a report run against an older snapshot)
 * or else the company's newest.
 */
export async function widgetSnapshot(context: { db: Queryable; companyId: number; snapshot?: Snapshot }): Promise<Snapshot | null> {
  return context.snapshot ?? readableSnapshot(context.db, context.companyId);
}

/**
 * The company's published snapshots that started at most `days` days ago, oldest first, pruned ones included; with
 * `upTo` (a report on an older snapshot), those of the `days` days up to and including that snapshot instead.
 */
export async function recentSnapshots(db: Queryable, companyId: number, days: number, upTo?: Snapshot): Promise<PeriodSnapshot[]> {
  return db.query<PeriodSnapshot>(
    `select id, start_time, pruned_at is not null as pruned from discoveries
      where company_id = $1 and status = 'done' and ($3::int is null or id <= $3) and start_time >= coalesce($4::timestamptz, now()) - make_interval(days => $2)
      order by id`,
    [companyId, days, upTo?.id ?? null, upTo?.start_time.toISOString() ?? null],
  );
}

/** The newest published snapshot that started at least `days` days before `before` (perhaps pruned), or null. */
export async function snapshotDaysBefore(db: Queryable, companyId: number, before: Date, days: number): Promise<PeriodSnapshot | null> {
  const [row] = await db.query<PeriodSnapshot>(
    "select id, start_time, pruned_at is not null as pruned from discoveries where company_id = $1 and status = 'done' and start_time <= $2::timestamptz - make_interval(days => $3) order by id desc limit 1",
    [companyId, before.toISOString(), days],
  );
  return row ?? null;
}

/** Whose saved queries a widget expands, and where it reads: the company, and the user it is computed for. */
export type WidgetReader = { db: Queryable; companyId: number; userId: number | null };

const readerOf = (context: WidgetReader): QueryReader => ({ companyId: context.companyId, userId: context.userId });

/** Runs a compile, its query errors answered on `field` (a form's name for the query it holds). */
async function onField<T>(field: string, compile: () => Promise<T>): Promise<T> {
  try {
    return await compile();
  } catch (error) {
    if (error instanceof DomainError && field !== 'query' && 'query' in error.body) throw new Invalid({ [field]: (error.body as Record<string, string[]>).query });
    throw error;
  }
}

/** One saved query the widget's reader may read (name, text, inventory), or null. */
export function savedQueryOf(context: WidgetReader, id: number): Promise<{ name: string; text: string; type: string } | null> {
  return loadSavedQuery(context.db, readerOf(context), id);
}

/**
 * A widget's query as a SQL condition over the `snapshot_assets` rows of `entity`, compiled by the lists' compiler
 * (inventory/search.ts), relations to the snapshot's other inventories included: a widget counts what the list it
 * clicks through to counts. Parameters are numbered from `firstParameter`; `$1` must hold the snapshot's id, or
 * `snapshot` says which SQL names the row's snapshot when one statement reads several (`snapshotId` null then).
 * Empty text matches everything; errors become a 400 on `field`.
 */
export async function widgetCondition(
  context: WidgetReader, text: string, firstParameter: number, scope: { entity: string; snapshotId: number | null; snapshot?: string }, field = 'query',
): Promise<CompiledQuery> {
  if (!text.trim()) return { sql: 'true', params: [], table: 'snapshot_assets' };
  return onField(field, async () => {
    const relations = await relationOptions(context.db, context.companyId, scope.snapshotId, scope.entity, scope.snapshot);
    return queryCondition(context.db, readerOf(context), text, firstParameter, undefined, relations);
  });
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

/** Checks query text without running it, so a widget, chart or report section with a broken query is refused when saved. */
export async function checkQueryText(context: WidgetReader, text: string, field: string): Promise<void> {
  await onField(field, () => queryCondition(context.db, readerOf(context), text, 1));
}
