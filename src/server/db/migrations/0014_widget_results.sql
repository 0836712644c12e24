-- Widget and chart results, stored so a restarted server or a second API process answers a dashboard's first load
-- without computing it again. A result is keyed by what it depends on (the company's published snapshots and saved
-- queries, the tile's settings and, for tiles that move with the clock, the minute), so a key never names a stale
-- result; rows of older data are deleted when a newer publish warms the company's dashboards.
create table widget_results (
  company_id integer not null references companies (id) on delete cascade,
  cache_key text not null,
  fingerprint text not null,
  result jsonb not null,
  -- Results of tiles that move with the clock hold for their minute only.
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (company_id, cache_key)
);
create index widget_results_expiry on widget_results (expires_at) where expires_at is not null;
