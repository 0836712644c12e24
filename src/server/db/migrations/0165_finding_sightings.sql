-- When each finding was first seen, for the findings no source dates (Cartograph's own matches, scanners that give no
-- first-seen date): the start of the first discovery whose snapshot held it. Kept per company outside snapshots, as
-- analysts' statuses are, so it outlives the snapshot it was first seen in. Only findings new to the company are
-- written, so a discovery adds the rows of what appeared since the last one rather than rewriting millions.
create table finding_sightings (
  company_id integer not null references companies (id) on delete cascade,
  finding_id text not null,
  first_seen text not null,
  first_discovery_id integer not null,
  primary key (company_id, finding_id)
);
