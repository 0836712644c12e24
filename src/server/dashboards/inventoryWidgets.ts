import { countOf, snapshotCounts } from '../discovery/snapshotSummaries.js';
import { fieldColumn } from '../query/fieldColumns.js';
import { widgetCondition, widgetSnapshot, snapshotDaysBefore } from './snapshotScope.js';
import { compareQuery, equalsQuery, existsQuery, missingQuery, segmentQuery } from './segmentQueries.js';
import { namedSegments, sourceFieldOf } from './sourceSegments.js';
import { emptyResult, noSnapshotMessage, withTimeout, type WidgetContext, type WidgetData, type WidgetSettings } from './widgetData.js';

/** Field names the dashboard reads where the device schema names none yet (security scores, certificates). */
export const securityScoreField = 'SecurityScore';
export const certificateExpiryField = 'NotAfter';

// A device's score is its preferred source's (the first value), read as a number; a value that is not a number
// reads as no score, so a stray string never breaks an average. JSON numbers (the usual case) skip the text test.
const first = `fields->'${securityScoreField}'->0`;
const scoreSql = `case jsonb_typeof(${first}) when 'number' then (${first})::numeric
  when 'string' then case when ${first} #>> '{}' ~ '^-?[0-9]+(\\.[0-9]+)?$' then (${first} #>> '{}')::numeric end end`;

type ValueCounts = { rows: { label: string; value: number }[]; total: number; missing: number };

/**
 * The records of one snapshot that match the query, counted per value of `field` (the largest first, at most
 * `limit` values; null for all), with how many match and how many have no value. One scan, grouped by the
 * field's whole list of values (a handful of distinct lists for most fields), the lists then split into values:
 * no row is made per value of every record.
 */
async function valueCounts(context: WidgetContext, snapshotId: number, entity: string, field: string, query: string, limit: number | null): Promise<ValueCounts> {
  const condition = await widgetCondition(context, query, 4, { entity, snapshotId });
  const [counts] = await withTimeout(context.db, (connection) =>
    connection.query<ValueCounts>(
      `with lists as (select ${fieldColumn(field)}->$3 as field_values, count(*) as records from snapshot_assets where discovery_id = $1 and entity = $2 and ${condition.sql} group by 1)
       select coalesce((select sum(records) from lists), 0)::int as total,
              coalesce((select sum(records) from lists where coalesce(jsonb_array_length(field_values), 0) = 0), 0)::int as missing,
              coalesce((select json_agg(json_build_object('label', label, 'value', value) order by value desc, label) from (
                 select value as label, sum(records)::int as value from lists, jsonb_array_elements_text(coalesce(field_values, '[]'::jsonb)) as value
                  group by value order by 2 desc, 1 limit $${4 + condition.params.length}) as top_values), '[]') as rows`,
      [snapshotId, entity, field, ...condition.params, limit],
    ),
  );
  return counts;
}

/** Counts of the inventory's records per value of one field, the largest first, plus the records with no value. */
export async function groupBy(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const snapshot = await widgetSnapshot(context);
  if (!snapshot) return emptyResult(settings, 'pie', noSnapshotMessage);
  const { rows, total, missing } = await valueCounts(context, snapshot.id, settings.inventory, settings.field, settings.query, settings.limit);
  if (!total) return { ...emptyResult(settings, 'pie', 'No record of this inventory matches the query in the latest snapshot.', snapshot.id), total: 0 };
  const segments = (await namedSegments(context.db, snapshot.id, settings.field, rows)).map(({ condition, ...row }) => ({ ...row, query: segmentQuery(settings.query, condition) }));
  if (missing) segments.push({ label: 'No value', value: missing, query: segmentQuery(settings.query, missingQuery(settings.field)) });
  return { kind: settings.kind, display: 'pie', inventory: settings.inventory, index_id: snapshot.id, rows: segments, total };
}

/** Devices and users in the latest snapshot, beside the snapshot `days` before it. */
export async function totals(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const snapshot = await widgetSnapshot(context);
  if (!snapshot) return emptyResult(settings, 'number', noSnapshotMessage);
  const previous = await snapshotDaysBefore(context.db, context.companyId, snapshot.start_time, settings.days);
  // From the snapshots' summaries: the snapshot before may have been pruned since.
  const counts = await withTimeout(context.db, (connection) => snapshotCounts(connection, [snapshot.id, ...(previous ? [previous.id] : [])], ['device', 'user']));
  const rows = (['device', 'user'] as const).map((entity) => ({
    label: entity === 'device' ? 'Devices' : 'Users',
    inventory: entity,
    value: countOf(counts, snapshot.id, entity),
    previous: previous ? countOf(counts, previous.id, entity) : null,
    query: '',
  }));
  return { kind: settings.kind, display: 'number', inventory: 'device', index_id: snapshot.id, rows };
}

/**
 * Devices of the latest snapshot per source that reports them (each connection, or each adapter), beside the
 * number of unique (correlated) devices.
 */
export async function deviceDiscovery(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const snapshot = await widgetSnapshot(context);
  if (!snapshot) return emptyResult(settings, 'bar', noSnapshotMessage);
  const field = sourceFieldOf(settings.sources);
  const { rows: sources, total } = await valueCounts(context, snapshot.id, 'device', field, '', null);
  if (!total) return { ...emptyResult({ ...settings, inventory: 'device' }, 'bar', 'The latest snapshot holds no device: add a connection to an adapter that reports devices.', snapshot.id), total: 0 };
  const rows = [
    ...(await namedSegments(context.db, snapshot.id, field, sources)).map(({ condition, ...row }) => ({ ...row, query: condition })),
    { label: 'Unique devices', value: total, query: '' },
  ];
  return { kind: settings.kind, display: 'bar', inventory: 'device', index_id: snapshot.id, rows, total };
}

const noScoreMessage =
  `No device in the latest snapshot has a ${securityScoreField}: scores appear once security policies are evaluated during discovery enrichment or an adapter reports them.`;

/** The devices with the lowest security scores of the latest snapshot. */
export async function lowestSecurityScore(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const snapshot = await widgetSnapshot(context);
  if (!snapshot) return emptyResult(settings, 'table', noSnapshotMessage);
  const condition = await widgetCondition(context, settings.query, 2, { entity: 'device', snapshotId: snapshot.id });
  // The lowest scores are found on ids and scores alone; only those few devices are read again for their names.
  // Devices without a number sort last (nulls last), so they are dropped after the limit: a test before it would
  // compute every score twice.
  const rows = await withTimeout(context.db, (connection) =>
    connection.query<{ asset_id: string; hostname: string | null; os: string | null; score: string }>(
      `with lowest as (
         select asset_id, ${scoreSql} as score from snapshot_assets
          where discovery_id = $1 and entity = 'device' and fields ? '${securityScoreField}' and ${condition.sql} order by 2, 1 limit $${2 + condition.params.length})
       select asset_id, fields->'Hostname'->>0 as hostname, fields->'OS.Type'->>0 as os, score::text as score
         from lowest join snapshot_assets using (asset_id)
        where discovery_id = $1 and entity = 'device' and score is not null order by score, asset_id`,
      [snapshot.id, ...condition.params, settings.limit],
    ),
  );
  if (!rows.length) return emptyResult({ ...settings, inventory: 'device' }, 'table', noScoreMessage, snapshot.id);
  return {
    kind: settings.kind, display: 'table', inventory: 'device', index_id: snapshot.id, columns: ['Hostname', 'OS.Type', securityScoreField],
    rows: rows.map((row) => ({ Hostname: row.hostname ?? row.asset_id, 'OS.Type': row.os, [securityScoreField]: Number(row.score), query: equalsQuery('PrimaryKey', row.asset_id) })),
  };
}

/** The average security score of the scored devices, how many are scored and how many score below 50. */
export async function securityScore(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const snapshot = await widgetSnapshot(context);
  if (!snapshot) return emptyResult(settings, 'number', noSnapshotMessage);
  const condition = await widgetCondition(context, settings.query, 2, { entity: 'device', snapshotId: snapshot.id });
  const [summary] = await withTimeout(context.db, (connection) =>
    connection.query<{ average: string | null; scored: number; low: number; total: number }>(
      `select round(avg(score), 1)::text as average, count(score)::int as scored, count(*) filter (where score < 50)::int as low, count(*)::int as total from (
         select ${scoreSql} as score from snapshot_assets where discovery_id = $1 and entity = 'device' and ${condition.sql}) as scored`,
      [snapshot.id, ...condition.params],
    ),
  );
  if (!summary.scored) return emptyResult({ ...settings, inventory: 'device' }, 'number', noScoreMessage, snapshot.id);
  return {
    kind: settings.kind, display: 'number', inventory: 'device', index_id: snapshot.id, total: summary.total,
    rows: [
      { label: 'Average score', value: Number(summary.average), query: segmentQuery(settings.query, existsQuery(securityScoreField)) },
      { label: 'Devices scored', value: summary.scored, query: segmentQuery(settings.query, existsQuery(securityScoreField)) },
      { label: 'Scoring below 50', value: summary.low, query: segmentQuery(settings.query, compareQuery(securityScoreField, '<', 50)) },
    ],
  };
}

/** Certificates of the latest snapshot by how soon they expire: expired, within 30 days, within 90 days, later. */
export async function certificateExpiry(context: WidgetContext, settings: WidgetSettings): Promise<WidgetData> {
  const scoped = { ...settings, inventory: 'certificate' };
  const snapshot = await widgetSnapshot(context);
  if (!snapshot) return emptyResult(scoped, 'bar', noSnapshotMessage);
  const day = 86_400_000;
  const moments = [0, 30, 90].map((days) => new Date(context.now.getTime() + days * day).toISOString());
  const [counts] = await withTimeout(context.db, (connection) =>
    connection.query<{ expired: number; soon: number; quarter: number; later: number; unknown: number }>(
      `select count(*) filter (where expiry < $2)::int as expired,
              count(*) filter (where expiry >= $2 and expiry < $3)::int as soon,
              count(*) filter (where expiry >= $3 and expiry < $4)::int as quarter,
              count(*) filter (where expiry >= $4)::int as later,
              count(*) filter (where expiry is null)::int as unknown
         from (select (select min(value) from jsonb_array_elements_text(coalesce(fields->'${certificateExpiryField}', '[]'::jsonb)) as value) as expiry
                 from snapshot_assets where discovery_id = $1 and entity = 'certificate') as certificates`,
      [snapshot.id, ...moments],
    ),
  );
  const total = counts.expired + counts.soon + counts.quarter + counts.later + counts.unknown;
  if (!total) {
    return emptyResult(scoped, 'bar', 'The latest snapshot holds no certificate: add a TLS certificate scanner connection (or another certificate source) and run a discovery.', snapshot.id);
  }
  const [now, in30, in90] = moments;
  const field = certificateExpiryField;
  const rows = [
    { label: 'Expired', value: counts.expired, query: compareQuery(field, '<', now) },
    { label: 'Within 30 days', value: counts.soon, query: segmentQuery(compareQuery(field, '>=', now), compareQuery(field, '<', in30)) },
    { label: 'Within 90 days', value: counts.quarter, query: segmentQuery(compareQuery(field, '>=', in30), compareQuery(field, '<', in90)) },
    { label: 'Later', value: counts.later, query: compareQuery(field, '>=', in90) },
    ...(counts.unknown ? [{ label: 'No expiry date', value: counts.unknown, query: missingQuery(field) }] : []),
  ];
  return { kind: settings.kind, display: 'bar', inventory: 'certificate', index_id: snapshot.id, rows, total };
}
