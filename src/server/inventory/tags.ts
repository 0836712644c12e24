import type { Queryable } from '../db/database.js';
import { refreshSnapshotIndex } from './snapshotIndex.js';

export const tagKind = 'cartograph:entities/tag';

/**
 * Recomputes the `Tags` field of a snapshot's devices: the tags sources reported (kept in `SourceTags`) plus the
 * analysts' tags whose assignment shares a source record with the device. `assets` limits the work to those
 * devices (null: every device that has or gets a tag).
 */
export async function refreshDeviceTags(db: Queryable, companyId: number, discoveryId: number, assets: string[] | null): Promise<void> {
  const changed = await db.query<{ asset_id: string }>(
    `with keys as materialized (
       select distinct dt.tag_id, key.value as key from device_tags dt cross join unnest(dt.record_keys) as key(value) where dt.company_id = $2
     ), names as materialized (
       select a.asset_id, jsonb_agg(distinct r.document->>'name') as names
         from snapshot_assets a cross join unnest(a.record_keys) as asset_key(value)
         join keys on keys.key = asset_key.value
         join resources r on r.id = keys.tag_id and r.kind = '${tagKind}'
        where a.discovery_id = $1 and a.entity = 'device' and ($3::text[] is null or a.asset_id = any($3::text[]))
        group by a.asset_id
     ), combined as materialized (
       select a.asset_id,
              (select coalesce(jsonb_agg(distinct tag), '[]'::jsonb) from (
                 select jsonb_array_elements_text(coalesce(a.fields->'SourceTags', '[]'::jsonb)) as tag
                 union select jsonb_array_elements_text(coalesce(n.names, '[]'::jsonb))) as every_tag) as tags
         from snapshot_assets a left join names n on n.asset_id = a.asset_id
        where a.discovery_id = $1 and a.entity = 'device' and ($3::text[] is null or a.asset_id = any($3::text[])) and (n.asset_id is not null or a.fields ? 'Tags')
     )
     update snapshot_assets a
        set fields = case when jsonb_array_length(c.tags) = 0 then a.fields - 'Tags' else jsonb_set(a.fields, '{Tags}', c.tags) end
       from combined c
      where a.discovery_id = $1 and a.entity = 'device' and a.asset_id = c.asset_id and a.fields->'Tags' is distinct from c.tags
     returning a.asset_id`,
    [discoveryId, companyId, assets],
  );
  await refreshSnapshotIndex(db, discoveryId, 'device', changed.map((row) => row.asset_id));
}

/** Tags every matched device (assignments keep the devices' source records, so they survive later discoveries). */
export async function assignTags(db: Queryable, companyId: number, tagIds: number[], discoveryId: number, assetIds: string[]): Promise<void> {
  await db.query(
    `insert into device_tags (company_id, tag_id, asset_id, record_keys)
     select $1, tag.id, a.asset_id, a.record_keys from snapshot_assets a cross join unnest($2::int[]) as tag(id)
      where a.discovery_id = $3 and a.entity = 'device' and a.asset_id = any($4::text[])
     on conflict (tag_id, asset_id) do update set record_keys = excluded.record_keys`,
    [companyId, tagIds, discoveryId, assetIds],
  );
}

/** Takes tags off the matched devices: every assignment sharing a source record with them goes. */
export async function unassignTags(db: Queryable, companyId: number, tagIds: number[], discoveryId: number, assetIds: string[]): Promise<void> {
  await db.query(
    `delete from device_tags dt using (
       select distinct key.value as key from snapshot_assets a cross join unnest(a.record_keys) as key(value)
        where a.discovery_id = $3 and a.entity = 'device' and a.asset_id = any($4::text[])
     ) as matched
     where dt.company_id = $1 and dt.tag_id = any($2::int[]) and matched.key = any(dt.record_keys)`,
    [companyId, tagIds, discoveryId, assetIds],
  );
}
