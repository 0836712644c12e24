-- The places of the certificate inventory, per snapshot: one row per endpoint (host, port, SNI name) where a source
-- saw a certificate served, with the device of the snapshot behind it when one matches and the chain served there
-- (SHA-256 fingerprints, leaf first). The certificate itself is one asset (`entity = 'certificate'`) however many
-- endpoints serve it: a wildcard on a thousand hosts is one certificate with a thousand places.
create table snapshot_certificate_places (
  discovery_id integer not null references discoveries (id) on delete cascade,
  certificate_asset text not null,
  host text not null,
  port integer,
  sni text,
  device_asset text,
  chain text[] not null default '{}',
  chain_verified boolean,
  verification_error text,
  tls_version text,
  adapter text not null,
  connection_id integer not null
);
create index snapshot_certificate_places_certificate on snapshot_certificate_places (discovery_id, certificate_asset);
create index snapshot_certificate_places_device on snapshot_certificate_places (discovery_id, device_asset);
