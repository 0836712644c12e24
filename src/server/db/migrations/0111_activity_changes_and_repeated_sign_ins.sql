-- What a change did: the resource before and after it, as JSON with every secret redacted and large documents cut
-- to a marker (src/server/activities/activityChanges.ts). Null where nothing is stored: sign-ins, failed requests,
-- activities older than this migration.
alter table activities add column value_before jsonb;
alter table activities add column value_after jsonb;

-- A keyed hash (HMAC under a key that lives only in the server process) of a failed sign-in's username, address and
-- password, so the same attempt sent again within seconds (the console's one retry of an LDAP sign-in) counts once
-- toward lockout. The password itself is never stored, and the hash is useless once the process has stopped.
alter table sign_in_failures add column attempt_digest text;
