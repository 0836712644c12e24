import type { Database } from '../db/database.js';
import { planSnapshotQuery, withStatementTimeout } from '../inventory/search.js';
import type { QueryReader } from '../query/savedQueryStore.js';
import type { ActionScope } from './actionStore.js';
import type { Target } from './template.js';

// The fields that name an asset in run results, by inventory.
export const nameFields = ['Hostname', 'Username', 'Name', 'CveId', 'CommonName', 'PrimaryKey'];
const readChunk = 2000;

/** The query text of a scope: a saved query and the typed text, both holding. */
export function scopeQuery(scope: ActionScope): string {
  const parts = [scope.saved_query ? `Query is ${scope.saved_query}` : '', scope.query?.trim() ? `(${scope.query.trim()})` : ''].filter(Boolean);
  return parts.join(' AND ');
}

/**
 * The assets of a snapshot a scope matches, in asset order with their fields; `only` keeps those ids (a re-run's
 * failed targets), `except` drops those (the previous run's targets, for "only new assets").
 */
export async function resolveTargets(db: Database, reader: QueryReader, discoveryId: number, scope: ActionScope, filters: { only?: string[]; except?: string[] } = {}): Promise<Target[]> {
  return withStatementTimeout(db, async (connection) => {
    const plan = await planSnapshotQuery(connection, reader, discoveryId, scope.entity, scopeQuery(scope));
    const next = plan.params.length + 1;
    const ids = (await connection.query<{ asset_id: string }>(
      `select asset_id from ${plan.table} where ${plan.where} and ($${next}::text[] is null or asset_id = any($${next}::text[])) and not (asset_id = any($${next + 1}::text[])) order by asset_id`,
      [...plan.params, filters.only ?? null, filters.except ?? []],
    )).map((row) => row.asset_id);
    const targets: Target[] = [];
    for (let start = 0; start < ids.length; start += readChunk) {
      const rows = await connection.query<{ asset_id: string; fields: Record<string, unknown[]> }>(
        'select asset_id, fields from snapshot_assets where discovery_id = $1 and entity = $2 and asset_id = any($3::text[]) order by asset_id',
        [discoveryId, scope.entity, ids.slice(start, start + readChunk)],
      );
      for (const row of rows) {
        const nameField = nameFields.find((field) => row.fields[field]?.length);
        targets.push({ assetId: row.asset_id, name: nameField ? String(row.fields[nameField][0]) : row.asset_id, fields: row.fields });
      }
    }
    // By name: mails, messages and results read in the order people look for hosts.
    return targets.sort((left, right) => left.name.localeCompare(right.name) || left.assetId.localeCompare(right.assetId));
  });
}

const previewSampleSize = 10;

/**
 * How many assets of the latest snapshot a scope matches, with the first few by asset id: what an action form shows
 * while its scope is typed, from the same compiler a run resolves its targets with.
 */
export async function previewScope(db: Database, reader: QueryReader, discoveryId: number, scope: ActionScope) {
  return withStatementTimeout(db, async (connection) => {
    const plan = await planSnapshotQuery(connection, reader, discoveryId, scope.entity, scopeQuery(scope));
    const [{ count }] = await connection.query<{ count: number }>(`select count(*)::int as count from ${plan.table} where ${plan.countWhere}`, plan.params);
    const rows = await connection.query<{ asset_id: string; fields: Record<string, unknown[]> }>(
      `select t.asset_id, a.fields from (select asset_id from ${plan.table} where ${plan.where} order by asset_id limit ${previewSampleSize}) t
         join snapshot_assets a on a.discovery_id = $1 and a.entity = $2 and a.asset_id = t.asset_id order by t.asset_id`,
      plan.params,
    );
    const sample = rows.map((row) => {
      const nameField = nameFields.find((field) => row.fields[field]?.length);
      return { asset_id: row.asset_id, name: nameField ? String(row.fields[nameField][0]) : row.asset_id };
    });
    return { index_id: discoveryId, matching: count, sample };
  });
}
