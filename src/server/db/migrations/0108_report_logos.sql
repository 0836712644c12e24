-- The company's logo printed on its reports' title pages: one per company (the issue's "company logo"), a PNG or
-- JPEG of at most 256 kB, checked when uploaded. Reports choose whether to show it (show_logo in their document).
create table report_logos (
  company_id integer primary key references companies (id) on delete cascade,
  content_type text not null,
  size integer not null,
  content bytea not null,
  updated_at timestamptz not null default now()
);
