-- A snapshot's findings are millions of rows at 100k devices (70 a device when Cartograph's own matching finds them).
-- Appended to one shared table they paid, row by row, for its three indexes and its foreign key: three times what
-- the rows themselves cost. snapshot_findings is now partitioned by snapshot: the vulnerability stage loads its
-- findings into a bare table, indexes it once loaded and attaches it as the snapshot's partition
-- (src/server/discovery/software/findingsPartitions.ts); an old snapshot's findings are a table dropped rather than
-- millions of rows deleted. Rows written to snapshot_findings itself land in its default partition.
alter table snapshot_findings rename to snapshot_findings_unpartitioned;
alter table snapshot_findings_unpartitioned rename constraint snapshot_findings_pkey to snapshot_findings_unpartitioned_pkey;
drop index snapshot_findings_device;
drop index snapshot_findings_vulnerability;

-- The same columns, defaults and checks as before (migration 0030), partitioned.
create table snapshot_findings (
  like snapshot_findings_unpartitioned including defaults including constraints,
  primary key (discovery_id, finding_id),
  foreign key (discovery_id) references discoveries (id) on delete cascade
) partition by list (discovery_id);
create index snapshot_findings_device on snapshot_findings (discovery_id, device_asset);
create index snapshot_findings_vulnerability on snapshot_findings (discovery_id, vulnerability_asset);
create table snapshot_findings_default partition of snapshot_findings default;

do $$
declare
  snapshot integer;
begin
  for snapshot in select distinct discovery_id from snapshot_findings_unpartitioned loop
    execute format('create table snapshot_findings_%s partition of snapshot_findings for values in (%s)', snapshot, snapshot);
  end loop;
end
$$;
insert into snapshot_findings select * from snapshot_findings_unpartitioned;
drop table snapshot_findings_unpartitioned;
