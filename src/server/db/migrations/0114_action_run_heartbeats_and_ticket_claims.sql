-- Action runs survive the process running them: the attempt that owns a run says it is alive in `heartbeat_at`; a
-- run whose heartbeat grew old is taken over by another process (with the next attempt, so the stopped one can no
-- longer write) or failed. `acting_since` says the run had begun acting on its targets.
alter table action_runs add column attempt integer not null default 0;
alter table action_runs add column worker text;
alter table action_runs add column heartbeat_at timestamptz;
alter table action_runs add column acting_since timestamptz;
create index action_runs_running on action_runs (heartbeat_at) where status = 'running';

-- A ticket is claimed (one row per action and asset, the ticket still unknown) before the ticketing system is asked
-- to open it, so two runs at once cannot both open one; the claim gets the ticket's key after, and is released when
-- the call failed.
alter table action_tickets alter column ticket drop not null;
alter table action_tickets add column run_id integer references action_runs (id) on delete set null;
