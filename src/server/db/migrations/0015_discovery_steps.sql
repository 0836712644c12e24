-- A discovery as steps that any worker process may run: one fetch per connection, then one publish (correlate,
-- merge, index, publish). Each step is a job of the queue; its row says which attempt owns it and when that attempt
-- last showed it was alive, so a step whose worker died is given to another worker, and an attempt that lost its
-- step (superseded) stops writing.
create table discovery_steps (
  discovery_id integer not null references discoveries (id) on delete cascade,
  step text not null,
  position integer not null,
  state text not null check (state in ('pending', 'queued', 'running', 'done', 'warning', 'error')),
  attempt integer not null default 0,
  worker text not null default '',
  heartbeat_at timestamptz,
  primary key (discovery_id, step)
);
create index discovery_steps_alive on discovery_steps (heartbeat_at) where state in ('queued', 'running');

-- What correlation reads of a source record (its identifying fields), written beside the record as it is fetched:
-- the publish step, wherever it runs, reads these small documents instead of holding every record of every fetch.
alter table snapshot_records add column identity json;

-- A discovery is no longer one job: its steps' rows say what runs where.
alter table discoveries drop column job_id;
