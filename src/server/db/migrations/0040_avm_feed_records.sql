-- The records of the AVM's feeds (NVD CVE, CISA KEV, FIRST EPSS), public data shared by every company. Each import
-- writes its rows under its own import id; only committed imports are read, so a feed that breaks half-way leaves
-- the previous one in use. A KEV or EPSS import replaces the whole catalogue; an NVD import (a yearly file, the
-- modified feed, API pages) replaces the CVEs it holds and keeps the others. The feed tables name their import
-- without a foreign key: its check costs more than the row on a 250k-row import, and the importer deletes an
-- import's rows itself (src/server/avm/feedImport.ts).
create table avm_imports (
  id serial primary key,
  slug text not null references enrichments (slug),
  -- staging, committed, failed
  status text not null default 'staging',
  source text not null,
  record_count integer not null default 0,
  error text not null default '',
  started_at timestamptz not null default now(),
  finished_at timestamptz
);
create index avm_imports_slug on avm_imports (slug, status);

alter table enrichments add column last_attempt_at timestamptz;
alter table enrichments add column last_error text not null default '';

create table avm_kev (
  import_id integer not null,
  cve_id text not null,
  vendor_project text,
  product text,
  vulnerability_name text,
  date_added text,
  due_date text,
  known_ransomware_use text,
  required_action text,
  primary key (import_id, cve_id)
);
create index avm_kev_cve on avm_kev (cve_id);

create table avm_epss (
  import_id integer not null,
  cve_id text not null,
  score double precision not null,
  percentile double precision not null,
  score_date text,
  primary key (import_id, cve_id)
);
create index avm_epss_cve on avm_epss (cve_id);

create table avm_nvd_cves (
  import_id integer not null,
  cve_id text not null,
  published text,
  last_modified text,
  status text,
  description text,
  cvss3_vector text,
  cvss2_vector text,
  cvss4_vector text,
  cwes text[] not null default '{}',
  -- The CVE's configurations as NVD writes them (nodes, operators, CPE match criteria with version ranges).
  configurations jsonb not null default '[]',
  primary key (import_id, cve_id)
);
create index avm_nvd_cves_cve on avm_nvd_cves (cve_id);

-- One row per vulnerable CPE product a CVE's configurations name: how installed software finds its candidate CVEs
-- without reading every configuration.
create table avm_nvd_products (
  import_id integer not null,
  cve_id text not null,
  vendor text not null,
  product text not null
);
create index avm_nvd_products_product on avm_nvd_products (product, vendor);
create index avm_nvd_products_cve on avm_nvd_products (import_id, cve_id);
