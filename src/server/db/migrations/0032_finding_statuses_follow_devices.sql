-- A finding's id names its device's asset id, which changes when correlation regroups the device (a new source
-- whose record sorts first joins it). An analyst's status therefore also remembers the finding's vulnerability and
-- the device's source records, so a later discovery can move it to the finding the same machine has there.
alter table finding_statuses add column vulnerability_asset text;
alter table finding_statuses add column device_record_keys text[] not null default '{}';
