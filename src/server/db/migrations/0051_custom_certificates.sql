-- Certificates administrators upload or paste (PEM, DER, PKCS#7, PKCS#12): each holds the certificates read from the
-- upload, leaf first, as PEM text. Never a private key (uploads holding one are refused; a PKCS#12's key is never
-- read) nor a PKCS#12 password (used once to open the file). Discoveries add them to the certificate inventory as the
-- `cartograph-certificate` source.
create table custom_certificates (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  name text not null,
  description text not null default '',
  fingerprint_sha256 text not null,
  certificates text not null,
  certificate_count integer not null,
  created_by integer references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, fingerprint_sha256)
);
