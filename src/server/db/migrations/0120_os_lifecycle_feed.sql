-- The OS lifecycle feed (endoflife.date's products and release cycles): a fifth feed beside the AVM's, imported,
-- downloaded and replaced the same way (src/server/avm/feedImport.ts), public data shared by every company. Each
-- cycle keeps its phases as the feed gives them: the last day of a phase, or only whether it had ended when the feed
-- was generated (a phase a product does not have is null). Discoveries read the committed cycles to give each device
-- its OS end of life and whether its OS is still supported (src/core/normalization/lifecycle.ts).
insert into enrichments (slug, name, description, position) values
  ('endoflife-date', 'endoflife.date OS lifecycle', 'End of life, end of active support and end of extended support of operating system releases (endoflife.date): what gives each device its OS end-of-life date and whether its OS is still supported.', 5);

create table lifecycle_cycles (
  import_id integer not null,
  product text not null,
  cycle text not null,
  label text,
  codename text,
  release_date text,
  lts boolean not null default false,
  eol_date text,
  eol_ended boolean not null,
  eoas_date text,
  eoas_ended boolean,
  eoes_date text,
  eoes_ended boolean,
  latest text,
  latest_date text,
  primary key (import_id, product, cycle)
);
create index lifecycle_cycles_product on lifecycle_cycles (product, cycle);
