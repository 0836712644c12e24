-- The OSV feed (https://osv.dev): advisories of distributions and language ecosystems in the OSV schema, a sixth
-- feed beside NVD, KEV, EPSS, the CPE dictionary and the OS lifecycle feed, imported, downloaded and replaced the
-- same way (src/server/avm/feedImport.ts). An import replaces the advisories it holds (by id) and keeps the others,
-- so each ecosystem's all.zip adds up. `cves` ties an advisory (DSA-5020-1, GHSA-jfh8-c2jp-5v3q) to the CVEs it is,
-- so KEV, EPSS and NVD's CVSS apply whatever the id; the package rows are what installed packages are matched by.
insert into enrichments (slug, name, description, position) values
  ('osv', 'OSV advisories', 'Advisories in the OSV format (osv.dev): the distributions'' own (Debian, Ubuntu, Red Hat, Rocky, Alma, Alpine) and the language ecosystems'' (GitHub advisories for Maven, npm, PyPI, Go, NuGet, crates.io): what installed packages are matched by, with the fixed versions their maintainers publish.', 6);

create table avm_osv_advisories (
  import_id integer not null,
  osv_id text not null,
  modified text,
  published text,
  withdrawn text,
  summary text,
  aliases text[] not null default '{}',
  cves text[] not null default '{}',
  primary key (import_id, osv_id)
);
create index avm_osv_advisories_id on avm_osv_advisories (osv_id);

-- One row per affected package of an advisory: the ecosystem as written (Debian:12, Red Hat:enterprise_linux:9::appstream),
-- the name as matched (PyPI's normalized form), the ECOSYSTEM and SEMVER ranges and the versions it lists.
create table avm_osv_packages (
  import_id integer not null,
  osv_id text not null,
  ecosystem text not null,
  name text not null,
  ranges jsonb not null default '[]',
  versions text[] not null default '{}'
);
create index avm_osv_packages_name on avm_osv_packages (name, ecosystem);
create index avm_osv_packages_advisory on avm_osv_packages (import_id, osv_id);
