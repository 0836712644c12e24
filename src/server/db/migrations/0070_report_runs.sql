-- Report runs and their files. A run is queued by a user or a schedule, rendered by a pg-boss job (status and
-- progress polled by the console), and its files are kept in the database until the company's retention ends.
create table report_runs (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  report_id integer not null,
  schedule_id integer,
  report_name text not null,
  formats text[] not null,
  index_id integer,
  status text not null default 'queued',
  progress jsonb not null default '{}'::jsonb,
  error text not null default '',
  delivery_status text not null default '',
  delivery_error text not null default '',
  requested_by integer references users (id) on delete set null,
  requested_by_name text not null default '',
  queued_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index report_runs_by_report on report_runs (company_id, report_id, id desc);
create index report_runs_by_age on report_runs (company_id, queued_at);

create table report_files (
  run_id integer not null references report_runs (id) on delete cascade,
  format text not null,
  filename text not null,
  content_type text not null,
  size bigint not null,
  content bytea not null,
  primary key (run_id, format)
);
