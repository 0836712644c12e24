-- Analysts' decisions on findings (fixed, false positive, risk accepted, or open again), with who and why. Kept
-- outside snapshots, by the finding's stable id (vulnerability and device), so the next discovery keeps them.
create table finding_statuses (
  company_id integer not null references companies (id) on delete cascade,
  finding_id text not null,
  status text not null check (status in ('open', 'fixed', 'false_positive', 'risk_accepted')),
  reason text not null default '',
  changed_by integer references users (id) on delete set null,
  changed_by_name text not null,
  changed_at timestamptz not null default now(),
  primary key (company_id, finding_id)
);
