-- Connection tests of connections on a remote connector run on that connector, as short jobs of kind 'test'.
-- A test belongs to no discovery, may be of settings not saved yet (no connection row), and carries its own
-- settings, secrets sealed as in connections, which the job row holds only while the test waits for its answer.
alter table connector_jobs add column kind text not null default 'fetch' check (kind in ('fetch', 'test'));
alter table connector_jobs alter column discovery_id drop not null;
alter table connector_jobs alter column connection_id drop not null;
alter table connector_jobs add column adapter text not null default '';
alter table connector_jobs add column config jsonb;
-- What the connector's connection test answered: { ok, reason?, detail }.
alter table connector_jobs add column result jsonb;
alter table connector_jobs add constraint connector_jobs_kind_shape check (
  (kind = 'fetch' and discovery_id is not null and connection_id is not null) or (kind = 'test' and config is not null)
);
