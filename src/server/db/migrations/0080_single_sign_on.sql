-- Single sign-on (OpenID Connect). A user who signed in through a company's identity provider is linked to it by the
-- provider's subject, which never changes, rather than by a username or e-mail the provider lets people edit.
alter table users add column sso_subject text;
create unique index users_sso_subject_key on users (company_id, sso_subject) where sso_subject is not null;

-- One row per sign-in started: the state sent to the provider, the PKCE verifier and nonce it must be answered with.
-- A row is used once (deleted by the callback) and is only good for ten minutes.
create table sso_requests (
  state text primary key,
  company_id integer not null references companies (id) on delete cascade,
  code_verifier text not null,
  nonce text not null,
  redirect text not null default '/',
  created_at timestamptz not null default now()
);

-- The callback hands the console a one-time code (in the URL), never the access token itself; the console exchanges
-- it once, within a minute, at POST /api/token/sso. Only its hash is stored.
create table sso_handoffs (
  code_hash text primary key,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now()
);
