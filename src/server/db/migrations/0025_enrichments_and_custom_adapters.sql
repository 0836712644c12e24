-- Cartograph's own vulnerability enrichments: the public feeds the AVM imports (NVD CVE, CISA KEV, FIRST EPSS).
-- The feeds are the same public data for every company, so one row per feed serves all of them. The importer fills
-- the import columns; until a feed has been imported its status says so and it holds no record.
create table enrichments (
  slug text primary key,
  name text not null,
  description text not null default '',
  -- never_imported, importing, imported, failed
  status text not null default 'never_imported',
  status_detail text not null default '',
  record_count integer not null default 0,
  last_imported_at timestamptz,
  position integer not null
);
insert into enrichments (slug, name, description, position) values
  ('nvd-cve', 'NVD CVE', 'CVE records of the U.S. National Vulnerability Database: descriptions, CVSS scores and the CPE configurations installed software is matched against.', 1),
  ('cisa-kev', 'CISA KEV', 'The CISA catalogue of Known Exploited Vulnerabilities: date added, due date, known ransomware use and required action.', 2),
  ('first-epss', 'FIRST EPSS', 'Exploit Prediction Scoring System scores of FIRST: the probability and percentile of exploitation in the next 30 days.', 3);

-- Custom adapters: sources an administrator defines from a CSV or XLSX sample (fields read from the sample, mapped to
-- entity fields). They are listed with the catalogue's adapters, marked custom.
create table custom_adapters (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  slug text not null,
  name text not null,
  description text not null default '',
  categories text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index custom_adapters_slug on custom_adapters (company_id, slug);
