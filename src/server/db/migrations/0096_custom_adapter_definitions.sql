-- What a custom adapter reads: the entity its rows describe, the shape of its files (the sample it was defined from)
-- and, per column of that sample, the inferred type, the entity field it feeds (none keeps it in the raw record only)
-- and whether it identifies the record for correlation. `fields` is a list of
-- {column, type, field, identifier} objects, validated by schemas/api/custom-adapter-write.json.
alter table custom_adapters
  add column entity text not null default 'device',
  add column file_type text not null default 'csv',
  add column delimiter text not null default ',',
  add column fields jsonb not null default '[]';
