-- The NVD CPE dictionary (CPE API 2.0 `products` pages or the CPE match criteria `matchStrings`), a fourth feed of
-- the AVM: the vendor and product NVD names each product, with the title it shows people, so installed software is
-- mapped to CPE products NVD's CVE configurations have not named yet, and by its displayed name. Like an NVD file,
-- an import replaces the products it holds and keeps the others (the dictionary comes in many pages).
insert into enrichments (slug, name, description, position) values
  ('nvd-cpe', 'NVD CPE dictionary', 'The CPE products of the U.S. National Vulnerability Database with their titles: how installed software is mapped to the vendor and product CVE configurations name.', 4);

create table avm_cpe_products (
  import_id integer not null,
  vendor text not null,
  product text not null,
  -- The product's title without its version ("Mozilla Firefox"), lower case; null when NVD gave none.
  title text,
  primary key (import_id, vendor, product)
);
create index avm_cpe_products_key on avm_cpe_products (vendor, product);

-- Downloads of the feeds from their configured URLs: the validators each server gave (ETag, Last-Modified) so the
-- next download asks only for a changed file, and the outcome of the last try.
create table avm_feed_downloads (
  url text primary key,
  slug text not null references enrichments (slug),
  etag text,
  last_modified text,
  checked_at timestamptz,
  outcome text not null default ''
);
