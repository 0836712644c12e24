-- Runs of the action center's actions (the actions themselves are documents in `resources`). A run lists its
-- targets with what happened to each; runs triggered by a discovery are unique per action and snapshot, so a
-- publish runs each action once however many workers hear of it.
create table action_runs (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  action_id integer not null references resources (id) on delete cascade,
  trigger text not null,
  discovery_id integer,
  slot text,
  dry_run boolean not null default false,
  rerun_of integer references action_runs (id) on delete set null,
  status text not null default 'queued',
  started_by integer references users (id) on delete set null,
  started_by_name text not null default '',
  targets integer not null default 0,
  succeeded integer not null default 0,
  failed integer not null default 0,
  skipped integer not null default 0,
  error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index action_runs_action on action_runs (action_id, id desc);
create unique index action_runs_once_per_snapshot on action_runs (action_id, discovery_id) where trigger = 'discovery';
create unique index action_runs_once_per_slot on action_runs (action_id, slot) where trigger = 'schedule';

create table action_run_results (
  run_id integer not null references action_runs (id) on delete cascade,
  asset_id text not null,
  name text not null default '',
  status text not null,
  detail text not null default '',
  output text not null default '',
  exit_code integer,
  primary key (run_id, asset_id)
);

-- Tickets an action opened, so a later run does not open a second one for the same asset.
create table action_tickets (
  action_id integer not null references resources (id) on delete cascade,
  asset_id text not null,
  ticket text not null,
  created_at timestamptz not null default now(),
  primary key (action_id, asset_id)
);
