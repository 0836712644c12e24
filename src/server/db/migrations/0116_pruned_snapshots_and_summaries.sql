-- A company keeps its newest `snapshots_to_keep` published snapshots; older ones lose their rows
-- (src/server/discovery/pipeline.ts, pruneSnapshots). The discovery row stays, marked with when its data went, so an
-- index that names it answers "pruned" rather than "not found".
alter table discoveries add column pruned_at timestamptz;

-- What each published snapshot held, per inventory: written with the publish (and again after an analyst's merge)
-- and kept after the snapshot's rows are pruned, so history and trend widgets draw a point for every discovery of
-- their period, as security_scores does for the security trends.
create table snapshot_summaries (
  discovery_id integer not null references discoveries (id) on delete cascade,
  company_id integer not null,
  entity text not null,
  assets integer not null,
  primary key (discovery_id, entity)
);
create index snapshot_summaries_company on snapshot_summaries (company_id, discovery_id);

-- Snapshots whose rows are here: counted from them.
insert into snapshot_summaries (discovery_id, company_id, entity, assets)
select a.discovery_id, d.company_id, a.entity, count(*)::int
  from snapshot_assets a join discoveries d on d.id = a.discovery_id
 where d.status = 'done'
 group by a.discovery_id, d.company_id, a.entity;

-- Snapshots already pruned: published, no row left, and either their discovery counted assets when it published them
-- (progress.assets) or they lie beyond what their company keeps.
with published as (
  select d.id, d.company_id, d.progress,
         row_number() over (partition by d.company_id order by d.id desc) as newest,
         coalesce((select (r.document->>'snapshots_to_keep')::int from resources r
                    where r.kind = 'cartograph:settings/discovery-settings' and r.company_id = d.company_id order by r.id limit 1), 10) as kept
    from discoveries d where d.status = 'done'
),
counted as (
  select id, company_id, progress, newest, kept,
         case when jsonb_typeof(progress->'assets') = 'object' then progress->'assets' else '{}'::jsonb end as assets
    from published
)
update discoveries d set pruned_at = now()
  from counted c
 where d.id = c.id
   and not exists (select 1 from snapshot_assets a where a.discovery_id = c.id)
   and not exists (select 1 from snapshot_records r where r.discovery_id = c.id)
   and (c.newest > c.kept or exists (select 1 from jsonb_each_text(c.assets) as e where e.value ~ '^[0-9]+$' and e.value::int > 0));

-- Their summaries, from the counts their discovery recorded as it published them.
insert into snapshot_summaries (discovery_id, company_id, entity, assets)
select d.id, d.company_id, e.key, e.value::int
  from discoveries d, jsonb_each_text(case when jsonb_typeof(d.progress->'assets') = 'object' then d.progress->'assets' else '{}'::jsonb end) as e
 where d.pruned_at is not null and e.value ~ '^[0-9]+$';
