-- Companies (tenants), their domains, the permission catalogue, groups, users and their credentials.
create table companies (
  id serial primary key,
  name text not null,
  is_active boolean not null default true,
  is_constant boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index companies_name_key on companies (lower(name));

create table domains (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  domain text not null,
  is_primary boolean not null default false
);
create unique index domains_domain_key on domains (lower(domain));
create unique index domains_one_primary on domains (company_id) where is_primary;

create table permissions (
  id serial primary key,
  app text not null,
  codename text not null,
  label text not null,
  unique (app, codename)
);

create table groups (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  name text not null,
  is_builtin boolean not null default false,
  adapters text[] not null default '{}'
);
create unique index groups_name_key on groups (company_id, lower(name));

create table group_permissions (
  group_id integer not null references groups (id) on delete cascade,
  permission_id integer not null references permissions (id) on delete cascade,
  primary key (group_id, permission_id)
);

create table users (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  username text not null,
  email text not null default '',
  first_name text not null default '',
  last_name text not null default '',
  password_hash text,
  password_changed_at timestamptz not null default now(),
  password_expired boolean not null default false,
  is_active boolean not null default true,
  is_ldap boolean not null default false,
  otp_secret text,
  otp_pending_secret text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_username_key on users (lower(username));
create index users_company on users (company_id);

create table user_groups (
  user_id integer not null references users (id) on delete cascade,
  group_id integer not null references groups (id) on delete cascade,
  primary key (user_id, group_id)
);

create table api_tokens (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  name text not null,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz
);

-- Failed sign-ins by the username typed (existing or not, so answers never reveal which usernames exist).
create table sign_in_failures (
  id serial primary key,
  username text not null,
  source_ip text not null,
  created_at timestamptz not null default now()
);
create index sign_in_failures_lookup on sign_in_failures (lower(username), created_at);
