-- A certificate a source reports on a device without an endpoint (a machine's certificate store, a CSV of
-- certificates per host) is installed there rather than served: it is a place of the certificate with the device,
-- its host the device's name, and `installed` set so the device's certificates panel can tell the two apart.
alter table snapshot_certificate_places add column installed boolean not null default false;
