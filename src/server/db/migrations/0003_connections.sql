-- Connectors (where fetches run) and connections (one configured instance of an adapter).
create table connectors (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  name text not null,
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index connectors_one_default on connectors (company_id) where is_default;
insert into connectors (company_id, name, is_default) select id, 'Default', true from companies;

create table connections (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  adapter text not null,
  name text not null,
  description text not null default '',
  connector_id integer not null references connectors (id),
  enabled boolean not null default true,
  -- The connection schema's object; values of x-secret fields are stored encrypted (AES-256-GCM).
  config jsonb not null,
  -- Adapter status numbers: 1 done, 2 warning, 3 error, 4 not run yet.
  status integer not null default 4,
  status_detail text not null default '',
  last_checked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index connections_company_adapter on connections (company_id, adapter);
create unique index connections_name_key on connections (company_id, adapter, lower(name));
