-- The links of the service and license inventories, per snapshot, as narrow rows like installations (migration 0030).
-- A service instance is one source's report of a service in one place: on a device (a Windows service, a daemon, an
-- open port) or, for a cloud service, on a host or cluster that is no device of the inventory (`device_asset` null).
-- Several sources reporting the same service on the same device are several rows, grouped when read.
create table snapshot_service_instances (
  discovery_id integer not null references discoveries (id) on delete cascade,
  service_asset text not null,
  device_asset text,
  host text,
  service_name text not null,
  display_name text,
  state text,
  start_type text,
  account text,
  port integer,
  protocol text,
  product text,
  version text,
  banner text,
  path text,
  last_seen text,
  adapter text not null,
  connection_id integer not null
);
create index snapshot_service_instances_service on snapshot_service_instances (discovery_id, service_asset);
create index snapshot_service_instances_device on snapshot_service_instances (discovery_id, device_asset);

-- A license assigned to a user, as a source (or the mapping file) says: the user as reported, and the merged user
-- of the snapshot it names when one matched. Device consumption is read from the installations of its software.
create table snapshot_license_assignments (
  discovery_id integer not null references discoveries (id) on delete cascade,
  license_asset text not null,
  user_asset text,
  user_name text not null,
  adapter text not null,
  connection_id integer not null
);
create index snapshot_license_assignments_license on snapshot_license_assignments (discovery_id, license_asset);
create index snapshot_license_assignments_user on snapshot_license_assignments (discovery_id, user_asset);
