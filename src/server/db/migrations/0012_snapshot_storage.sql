-- Vendors' raw fields (`Specifics.<adapter>.*`) move out of an asset's `fields` into `specifics`. Lists, filters
-- and charts read the entity fields of every asset of a snapshot; the raw fields made each of those documents
-- several times larger (and compressed, so every read paid for decompressing them). Kept out of line and
-- uncompressed, they cost nothing until a query names one.
-- `preferred` keeps only the adapter per entity field: the preferred value is always the field's first value.
alter table snapshot_assets add column specifics jsonb not null default '{}';
alter table snapshot_assets alter column specifics set storage external;
update snapshot_assets
   set specifics = coalesce((select jsonb_object_agg(key, value) from jsonb_each(fields) where key like 'Specifics.%'), '{}'),
       fields = coalesce((select jsonb_object_agg(key, value) from jsonb_each(fields) where key not like 'Specifics.%'), '{}'),
       preferred = coalesce((select jsonb_object_agg(key, value->'adapter') from jsonb_each(preferred) where key not like 'Specifics.%'), '{}');

-- Source records are kept as the text they were written as (`json`, validated but not converted): they are read
-- whole, for an asset's detail or a re-merge, never searched field by field (assets are), and converting every
-- record of a discovery to jsonb was a large share of writing it.
alter table snapshot_records alter column fields type json using fields::json;
