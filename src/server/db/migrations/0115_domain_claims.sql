-- Domain claims. A company's domain routes single sign-on to it only once the claim is proven: a DNS TXT record
-- carrying the claim's token (verification_method 'dns'), or the provider company's approval ('provider').
-- Several companies may claim one domain while it is pending; only one can hold it verified.
alter table domains
  add column verification_token text,
  add column verified_at timestamptz,
  add column verification_method text check (verification_method in ('dns', 'provider', 'legacy')),
  add column created_at timestamptz not null default now();

-- Domains from before claims were checked keep routing sign-ins (switching them off would lock companies out on
-- upgrade); they are marked 'legacy' so the provider can see which ones nobody proved.
update domains set verified_at = now(), verification_method = 'legacy',
  verification_token = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');

alter table domains
  alter column verification_token set not null,
  add constraint domains_verified_has_method check ((verified_at is null) = (verification_method is null));

drop index domains_domain_key;
create unique index domains_verified_domain_key on domains (lower(domain)) where verified_at is not null;
create unique index domains_company_domain_key on domains (company_id, lower(domain));
