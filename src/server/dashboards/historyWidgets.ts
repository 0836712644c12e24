import { countOf, snapshotCounts } from '../discovery/snapshotSummaries.js';
import { Invalid } from '../errors.js';
import { widgetCondition, widgetSnapshot, recentSnapshots, savedQueryOf, snapshotDaysBefore, type WidgetReader } from './snapshotScope.js';
import type { Snapshot } from '../inventory/snapshots.js';
import { emptyResult, noSnapshotMessage, withTimeout, type WidgetContext, type WidgetData, type WidgetSettings } from './widgetData.js';

type Series = { name: string; text: string };

/**
 * How many records of `entity` match each of `texts` in each snapshot, in the order of `texts`: one scan of the
 * snapshots, whatever the number of series (one series filters the scan; several are counted side by side).
 */
async function countsPerSnapshot(reader: WidgetReader, snapshots: Snapshot[], entity: string, texts: string[]): Promise<Map<number, number>[]> {
  const connection = reader.db;
  const params: unknown[] = [snapshots.map((snapshot) => snapshot.id), entity];
  const conditions: string[] = [];
  for (const text of texts) {
    const condition = await widgetCondition(reader, text, params.length + 1, { entity, snapshotId: null, snapshot: 'snapshot_assets.discovery_id' });
    params.push(...condition.params);
    conditions.push(condition.sql);
  }
  const [counts, where] = conditions.length === 1
    ? ['count(*)::int', conditions[0]]
    : [conditions.map((condition) => `count(*) filter (where ${condition})::int`).join(', '), 'true'];
  const rows = await connection.query<{ discovery_id: number; counts: number[] }>(
    `select discovery_id, array[${counts}] as counts from snapshot_assets where discovery_id = any($1::int[]) and entity = $2 and ${where} group by discovery_id`,
    params,
  );
  return texts.map((_, index) => new Map(rows.map((row) => [row.discovery_id, row.counts[index]])));
}

/**
 * Time-series rows, one per snapshot and series; a snapshot where nothing matched counts 0. A series without a query
 * counts a whole inventory, which every snapshot's summary holds, pruned ones' too; a query's count needs the
 * snapshot's rows, so a pruned snapshot has no point in such a series (a gap, not a false zero).
 */
async function seriesOverSnapshots(context: WidgetContext, settings: WidgetSettings, series: Series[], entityOf: (serie: Series) => string): Promise<WidgetData> {
  const snapshots = await recentSnapshots(context.db, context.companyId, settings.days, context.snapshot);
  if (!snapshots.length) return emptyResult(settings, 'line', `No discovery completed in the last ${settings.days} days: run discoveries (or set a schedule) to draw this history.`);
  const counted = (serie: Series) => Boolean(serie.text.trim());
  const rows = await withTimeout(context.db, async (connection) => {
    const countsOf = new Map<Series, Map<number, number>>();
    const whole = series.filter((serie) => !counted(serie));
    const summaries = whole.length ? await snapshotCounts(connection, snapshots.map((snapshot) => snapshot.id), [...new Set(whole.map(entityOf))]) : [];
    for (const serie of whole) countsOf.set(serie, new Map(snapshots.map((snapshot) => [snapshot.id, countOf(summaries, snapshot.id, entityOf(serie))])));
    const queried = series.filter(counted);
    const kept = snapshots.filter((snapshot) => !snapshot.pruned);
    for (const entity of new Set(queried.map(entityOf))) {
      const sharing = queried.filter((serie) => entityOf(serie) === entity);
      const counts = kept.length ? await countsPerSnapshot({ db: connection, companyId: context.companyId, userId: context.userId }, kept, entity, sharing.map((serie) => serie.text)) : sharing.map(() => new Map<number, number>());
      sharing.forEach((serie, index) => countsOf.set(serie, counts[index]));
    }
    return series.flatMap((serie) =>
      (counted(serie) ? kept : snapshots).map((snapshot) => ({ date: snapshot.start_time.toISOString(), series: serie.name, value: countsOf.get(serie)?.get(snapshot.id) ?? 0, index_id: snapshot.id, query: serie.text })),
    );
  });
  return { kind: settings.kind, display: 'line', inventory: settings.inventory, index_id: snapshots.at(-1)?.id ?? null, rows };
}

async function savedSeries(context: WidgetContext, ids: number[]): Promise<(Series & { type: string })[]> {
  const series: (Series & { type: string })[] = [];
  for (const id of ids) {
    const saved = await savedQueryOf(context, id);
    if (!saved) throw new Invalid({ saved_queries: [`Saved query ${id} does not exist.`] });
    series.push({ name: saved.name, text: `Query is ${id}`, type: saved.type });
  }
  return series;
}

/** One query's count in every snapshot of the last `days` days (the query text, or else the first saved query). */
export async function queryHistorical(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const [saved] = settings.query.trim() ? [] : await savedSeries(context, settings.saved_queries.slice(0, 1));
  const serie = saved ?? { name: settings.query.trim() || 'All records', text: settings.query };
  return seriesOverSnapshots(context, settings, [serie], (chosen) => (chosen as { type?: string }).type ?? settings.inventory);
}

/** One line per saved query (and one for the query text, when given) across the snapshots of the last `days` days. */
export async function queryTrend(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const series: (Series & { type?: string })[] = await savedSeries(context, settings.saved_queries);
  if (settings.query.trim()) series.push({ name: settings.query.trim(), text: settings.query });
  if (!series.length) return emptyResult(settings, 'line', 'Choose saved queries (or type a query) to draw their trend.');
  return seriesOverSnapshots(context, settings, series, (serie) => (serie as { type?: string }).type ?? settings.inventory);
}

const trendEntities = [
  ['device', 'Devices'], ['user', 'Users'], ['application', 'Applications'], ['vulnerability', 'Vulnerabilities'], ['certificate', 'Certificates'],
] as const;

/** The size of each inventory across the snapshots of the last `days` days; inventories never seen are left out. */
export async function trend(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const snapshots = await recentSnapshots(context.db, context.companyId, settings.days, context.snapshot);
  if (!snapshots.length) return emptyResult(settings, 'line', `No discovery completed in the last ${settings.days} days: run discoveries (or set a schedule) to draw this trend.`);
  // From the snapshots' summaries: a pruned snapshot keeps its point.
  const counts = await withTimeout(context.db, (connection) => snapshotCounts(connection, snapshots.map((snapshot) => snapshot.id), trendEntities.map(([entity]) => entity)));
  const present = trendEntities.filter(([entity]) => counts.some((row) => row.entity === entity));
  const rows = present.flatMap(([entity, label]) =>
    snapshots.map((snapshot) => ({
      date: snapshot.start_time.toISOString(), series: label, inventory: entity, index_id: snapshot.id, query: '',
      value: countOf(counts, snapshot.id, entity),
    })),
  );
  if (!rows.length) return emptyResult(settings, 'line', 'The recent snapshots hold no record yet: add connections and run a discovery.');
  return { kind: settings.kind, display: 'line', inventory: settings.inventory, index_id: snapshots.at(-1)?.id ?? null, rows };
}

/**
 * The query's count now and in the newest snapshot at least `days` days older, with the records that appeared
 * and disappeared between them (asset ids are stable across discoveries, so they can be compared).
 */
export async function timeDifferential(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const current = await widgetSnapshot(context);
  if (!current) return emptyResult(settings, 'number', noSnapshotMessage);
  const previous = await snapshotDaysBefore(context.db, context.companyId, current.start_time, settings.days);
  if (!previous) return emptyResult(settings, 'number', `No snapshot is ${settings.days} days older than the latest one yet: the comparison appears once discoveries have run for that long.`, current.id);
  // Which records appeared and disappeared needs both snapshots' rows, which a pruned one no longer has.
  if (previous.pruned) return emptyResult(settings, 'number', `The snapshot ${settings.days} days older than the latest one was pruned: keep more snapshots (discovery settings) to compare this far back.`, current.id);
  const condition = await widgetCondition(context, settings.query, 4, { entity: settings.inventory, snapshotId: null, snapshot: 'snapshot_assets.discovery_id' });
  const [counts] = await withTimeout(context.db, (connection) =>
    connection.query<{ now: number; before: number; added: number; removed: number }>(
      `with matching as (select discovery_id, asset_id from snapshot_assets where discovery_id in ($1, $2) and entity = $3 and ${condition.sql}),
            now_ids as (select asset_id from matching where discovery_id = $1),
            before_ids as (select asset_id from matching where discovery_id = $2)
       select (select count(*) from now_ids)::int as now, (select count(*) from before_ids)::int as before,
              (select count(*) from now_ids where asset_id not in (select asset_id from before_ids))::int as added,
              (select count(*) from before_ids where asset_id not in (select asset_id from now_ids))::int as removed`,
      [current.id, previous.id, settings.inventory, ...condition.params],
    ),
  );
  return {
    kind: settings.kind, display: 'number', inventory: settings.inventory, index_id: current.id,
    rows: [
      { label: 'Now', value: counts.now, previous: counts.before, date: current.start_time.toISOString(), query: settings.query },
      { label: `${settings.days} days before`, value: counts.before, date: previous.start_time.toISOString(), index_id: previous.id },
      { label: 'Added', value: counts.added },
      { label: 'Removed', value: counts.removed },
    ],
  };
}
