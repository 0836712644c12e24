-- How many failed sign-ins count toward the lockout of a username (as typed, lower-cased). One row a name, changed
-- only by single statements that add to it under a condition, so sign-ins sent at once cannot all read "four
-- failures" and all go on to check a password: the fifth reservation takes the row's last place, the rest are refused
-- (src/server/identity/signInLockout.ts). sign_in_failures keeps the record of each failure (address, digest).
create table sign_in_attempt_counts (
  username_key text primary key,
  failures integer not null,
  last_counted_at timestamptz not null default now()
);
