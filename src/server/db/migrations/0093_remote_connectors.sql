-- Remote connectors: processes near the sources that run the fetches of the connections assigned to them and send
-- the records back. A remote connector signs in with a token of its own, of which only the SHA-256 is kept.
alter table connectors add column description text not null default '';
-- Hex SHA-256 of the current token; null once revoked (and for the Default connector, which has none).
alter table connectors add column token_hash text;
alter table connectors add column token_issued_at timestamptz;
alter table connectors add column revoked_at timestamptz;
-- What the connector last reported about itself.
alter table connectors add column version text not null default '';
alter table connectors add column host text not null default '';
alter table connectors add column last_seen_at timestamptz;
alter table connectors add column last_error text not null default '';
alter table connectors add column last_error_at timestamptz;
alter table connectors add column error_count integer not null default 0;
create unique index connectors_name_key on connectors (company_id, lower(name));

-- One fetch a discovery waits for from a remote connector. The row lives as long as the discovery's fetch step
-- waits: the step deletes it when it has the result or gives up, and a connector answering after that is refused.
create table connector_jobs (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  connector_id integer not null references connectors (id) on delete cascade,
  connection_id integer not null references connections (id) on delete cascade,
  discovery_id integer not null references discoveries (id) on delete cascade,
  state text not null default 'queued' check (state in ('queued', 'leased', 'done', 'error')),
  -- Bumped by each lease: batches of an attempt whose lease expired and was taken again are refused.
  attempt integer not null default 0,
  lease_expires_at timestamptz,
  records_received integer not null default 0,
  -- Batches of the current attempt accepted so far: a batch sent again after a lost answer is not stored twice.
  batches_received integer not null default 0,
  error text not null default '',
  created_at timestamptz not null default now()
);
create index connector_jobs_waiting on connector_jobs (connector_id, state);
create unique index connector_jobs_one_per_fetch on connector_jobs (discovery_id, connection_id);

-- Records a connector sent that the waiting fetch step has not read yet, in arrival order.
create table connector_job_batches (
  id bigserial primary key,
  job_id integer not null references connector_jobs (id) on delete cascade,
  records jsonb not null,
  warnings jsonb not null default '[]'
);
create index connector_job_batches_job on connector_job_batches (job_id, id);
