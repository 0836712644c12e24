-- One-time recovery codes for the second factor: ten are shown once when one-time passwords are turned on, and each
-- signs in once in place of a code from the app (src/server/identity/recoveryCodes.ts). Only a digest is kept.
create table otp_recovery_codes (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  unique (user_id, code_hash)
);
