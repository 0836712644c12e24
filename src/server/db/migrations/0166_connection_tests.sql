-- A connection test says whether the system can be reached, not that its data was fetched: its outcome is kept apart
-- from the status of the last fetch (status, status_detail, last_checked_at, which only discoveries write), so a new
-- connection that passed its test reads "Reachable", not "Done", until a discovery fetches it.
alter table connections
  add column tested_at timestamptz,
  add column test_ok boolean,
  add column test_detail text not null default '';
