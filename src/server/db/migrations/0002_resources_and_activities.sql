-- Schema-validated documents of the generic resource layer, the audit trail and the system log.
create table resources (
  id serial primary key,
  kind text not null,
  company_id integer references companies (id) on delete cascade,
  document jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index resources_kind_company on resources (kind, company_id, id);

create table activities (
  id serial primary key,
  company_id integer references companies (id) on delete set null,
  user_id integer references users (id) on delete set null,
  username text not null default '',
  action text not null,
  target_type text not null default '',
  target_id text not null default '',
  source_ip text not null default '',
  result text not null,
  status_code integer not null,
  created_at timestamptz not null default now()
);
create index activities_company_time on activities (company_id, created_at desc);

create table system_log (
  id serial primary key,
  level text not null,
  event text not null,
  message text not null,
  detail jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index system_log_time on system_log (created_at desc);
