import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.js';
import type { WidgetData } from './widgetData.js';

/**
 * Widget results, kept in two levels: this process's memory, and the `widget_results` table that every process
 * shares and that outlives a restart. A published snapshot never changes, so a widget's result depends only on its
 * settings, the set of published snapshots, the saved queries it may expand, and (for date windows, expiry dates
 * and `last` date math) the current minute. The fingerprint captures the first three; it is read from the database
 * on every request, so several API processes never serve a result older than the data.
 */
const maximumEntries = 2000;
// Results being computed are kept too, so requests that arrive meanwhile (two users opening the same dashboard,
// or a user and the warming after a discovery) wait for the one computation instead of repeating it. Kept per
// database: keys name companies and snapshots by their ids, which only mean something in one database.
const entriesByDatabase = new WeakMap<Queryable, Map<string, Promise<WidgetData>>>();

// Kinds that read live tables (connections, the running discovery, the schedule): cheap, and never cached.
const liveKinds = new Set(['connection_statuses', 'discovery_info', 'next_discoveries']);
// Kinds whose answer moves with the clock even when the data does not.
const clockKinds = new Set(['certificate_expiry', 'query_historical', 'query_trend', 'trend']);

/** What the company's widget results depend on in the database: its published snapshots and its saved queries. */
export async function dataFingerprint(db: Queryable, companyId: number): Promise<string> {
  const [row] = await db.query<{ snapshots: string; queries: string }>(
    `select (select coalesce(max(id), 0) || ':' || count(*) from discoveries where company_id = $1 and status = 'done') as snapshots,
            (select coalesce(max(updated_at)::text, '') || ':' || count(*) || ':' || coalesce(max(id), 0) from resources where kind = 'cartograph:entities/saved-query' and company_id = $1) as queries`,
    [companyId],
  );
  return `${companyId}|${row.snapshots}|${row.queries}`;
}

/** True when the settings' query text may hold date math or saved queries, whose meaning moves with the clock. */
function readsClock(kind: string, settings: Record<string, unknown>): boolean {
  if (clockKinds.has(kind)) return true;
  const text = String(settings.query ?? '');
  return /\blast\b|\bquery\s+is\b/i.test(text) || Boolean(settings.group_by_query);
}

/**
 * True when the settings expand saved queries: their result then depends on whose saved queries may be read (a
 * private query expands for its owner only), so it is kept per reader.
 */
function readsSavedQueries(settings: Record<string, unknown>): boolean {
  return /\bquery\s+is\b/i.test(String(settings.query ?? '')) || Boolean(settings.group_by_query) || (Array.isArray(settings.saved_queries) && settings.saved_queries.length > 0);
}

/** The stored result under `key`, or the computed one, stored for the other processes (and the next start). */
async function storedOrComputed(db: Queryable, companyId: number, fingerprint: string, key: string, expiresAt: Date | null, compute: () => Promise<WidgetData>): Promise<WidgetData> {
  const [stored] = await db.query<{ result: WidgetData }>('select result from widget_results where company_id = $1 and cache_key = $2', [companyId, key]);
  if (stored) return stored.result;
  const result = await compute();
  await db.query(
    `insert into widget_results (company_id, cache_key, fingerprint, result, expires_at) values ($1, $2, $3, $4, $5)
     on conflict (company_id, cache_key) do update set result = excluded.result`,
    [companyId, key, fingerprint, JSON.stringify(result), expiresAt],
  );
  return result;
}

/** The cached result of a widget or chart for this fingerprint, computing (and keeping) it when missing. */
export async function cachedResult(db: Queryable, reader: { companyId: number; userId: number | null }, fingerprint: string, type: 'chart' | 'widget', settings: Record<string, unknown>, now: Date, compute: () => Promise<WidgetData>): Promise<WidgetData> {
  const { companyId } = reader;
  const kind = String(settings.kind);
  if (type === 'widget' && liveKinds.has(kind)) return compute();
  const minute = readsClock(kind, settings) ? Math.floor(now.getTime() / 60_000) : 0;
  const readerId = readsSavedQueries(settings) ? reader.userId : 'any';
  const key = JSON.stringify([fingerprint, type, minute, readerId, Object.entries(settings).filter(([field]) => !['name', 'description', 'dashboard', 'id', 'created_at', 'updated_at'].includes(field)).sort()]);
  const entries = entriesByDatabase.get(db) ?? new Map<string, Promise<WidgetData>>();
  entriesByDatabase.set(db, entries);
  const hit = entries.get(key);
  if (hit) {
    // Re-inserting keeps the map in least-recently-used order, so the oldest entry is the first to go.
    entries.delete(key);
    entries.set(key, hit);
    return hit;
  }
  const digest = createHash('sha256').update(key).digest('base64url');
  const computing = storedOrComputed(db, companyId, fingerprint, digest, minute ? new Date((minute + 1) * 60_000) : null, compute);
  entries.set(key, computing);
  if (entries.size > maximumEntries) entries.delete(entries.keys().next().value as string);
  // A failure is not kept: the next request computes again.
  computing.catch(() => {
    if (entries.get(key) === computing) entries.delete(key);
  });
  return computing;
}

/** Deletes the company's stored results of older data, and every result whose minute has passed. */
export async function pruneStoredResults(db: Queryable, companyId: number, fingerprint: string): Promise<void> {
  await db.query('delete from widget_results where (company_id = $1 and fingerprint <> $2) or expires_at < now()', [companyId, fingerprint]);
}
