-- Tags analysts put on devices. An assignment remembers the device's source records, so it follows the machine
-- into later discoveries even when correlation regroups it; the snapshot's Tags field is filled from these rows.
create table device_tags (
  company_id integer not null references companies (id) on delete cascade,
  tag_id integer not null references resources (id) on delete cascade,
  asset_id text not null,
  record_keys text[] not null,
  created_at timestamptz not null default now(),
  primary key (tag_id, asset_id)
);
create index device_tags_company on device_tags (company_id);

-- Relations sources report (a device's last users, the host a virtual machine runs on), per snapshot.
create table snapshot_relations (
  id bigserial primary key,
  discovery_id integer not null references discoveries (id) on delete cascade,
  kind text not null check (kind in ('device-user', 'device-device')),
  relation text not null,
  device_asset text not null,
  related_asset text,
  related_name text not null,
  adapters text[] not null
);
create index snapshot_relations_device on snapshot_relations (discovery_id, device_asset);
create index snapshot_relations_related on snapshot_relations (discovery_id, related_asset);
