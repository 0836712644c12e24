-- The links of the software and vulnerability inventories, per snapshot. A fleet of 100k devices has millions of
-- installations, so they are narrow typed rows rather than asset documents: one row per source observation of a
-- software version on a device (several sources reporting the same installation are several rows, grouped when
-- read), and one row per finding (a vulnerability on a device), its sources merged into `sources`.
-- Queries from devices reach them (`Software.Name = "Google Chrome"`) and back (`Device.OS.Type = Windows`).
create table snapshot_installations (
  discovery_id integer not null references discoveries (id) on delete cascade,
  device_asset text not null,
  software_asset text not null,
  software_name text not null,
  vendor text not null default '',
  version text not null default '',
  install_date text,
  install_path text,
  adapter text not null,
  connection_id integer not null
);
create index snapshot_installations_software on snapshot_installations (discovery_id, software_asset);
create index snapshot_installations_device on snapshot_installations (discovery_id, device_asset);

create table snapshot_findings (
  discovery_id integer not null references discoveries (id) on delete cascade,
  finding_id text not null,
  device_asset text not null,
  vulnerability_asset text not null,
  cve_id text,
  title text,
  severity text,
  severity_level integer,
  score double precision,
  source_status text not null check (source_status in ('open', 'fixed')),
  first_seen text,
  last_seen text,
  ports text[] not null default '{}',
  software text[] not null default '{}',
  adapters text[] not null,
  sources jsonb not null,
  primary key (discovery_id, finding_id)
);
create index snapshot_findings_device on snapshot_findings (discovery_id, device_asset);
create index snapshot_findings_vulnerability on snapshot_findings (discovery_id, vulnerability_asset);
