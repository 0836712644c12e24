-- Discoveries and their snapshots. A snapshot's rows are written while its discovery runs and become visible
-- only when the discovery's status turns to 'done' in one update: that is the atomic publish.
create table discoveries (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  status text not null check (status in ('running', 'done', 'error')),
  trigger text not null default 'manual',
  started_by integer references users (id) on delete set null,
  start_time timestamptz not null default now(),
  end_time timestamptz,
  progress jsonb not null default '{}',
  error text not null default '',
  job_id text
);
create index discoveries_company on discoveries (company_id, id desc);
create unique index discoveries_one_running on discoveries (company_id) where status = 'running';

create table snapshot_records (
  discovery_id integer not null references discoveries (id) on delete cascade,
  record_key text not null,
  connection_id integer not null,
  adapter text not null,
  entity text not null,
  fields jsonb not null,
  primary key (discovery_id, record_key)
);

create table snapshot_assets (
  discovery_id integer not null references discoveries (id) on delete cascade,
  entity text not null,
  asset_id text not null,
  fields jsonb not null,
  preferred jsonb not null,
  record_keys text[] not null,
  reasons jsonb not null,
  primary key (discovery_id, entity, asset_id)
);

create table merge_recommendations (
  id serial primary key,
  discovery_id integer not null references discoveries (id) on delete cascade,
  entity text not null,
  left_asset text not null,
  right_asset text not null,
  score real not null,
  reasons jsonb not null
);
create index merge_recommendations_discovery on merge_recommendations (discovery_id, score desc);

-- An analyst's decisions, kept by record key so every later discovery applies them again.
create table merge_decisions (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  entity text not null,
  decision text not null check (decision in ('merge', 'split')),
  left_record text not null,
  right_record text not null,
  decided_by integer references users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index merge_decisions_company on merge_decisions (company_id, entity);
