-- A device's connection to a switch or access point carries the switch port and VLAN the network source reported
-- (relations.ts): the device detail's dependency map labels the link with them.
alter table snapshot_relations add column port text, add column vlan text;
