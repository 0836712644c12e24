-- Published snapshots never change (tags and analysts' merges aside), so they are stored for reading as well:
-- beside each asset's JSONB document, `snapshot_index` keeps the fields queries, sorts and counts use most as typed
-- columns (one row per asset, a few hundred bytes), which a filtered, sorted, counted page reads instead of testing
-- every document. The columns follow the entity schemas' `x-indexed` marks and are added at start-up
-- (src/server/inventory/snapshotIndex.ts), so indexing another field is a schema change, not a migration.
create table snapshot_index (
  discovery_id integer not null references discoveries (id) on delete cascade,
  entity text not null,
  asset_id text not null,
  primary key (discovery_id, entity, asset_id)
);

-- The fields each snapshot's index holds, per entity (`{"device": ["Hostname", ...]}`), written with the publish.
-- Snapshots published before a field was indexed answer queries on it from their documents.
alter table discoveries add column indexed_fields jsonb not null default '{}';
