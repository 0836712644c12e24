-- Security manager: what each published snapshot's scoring found (src/server/security/scoring.ts). Profiles and
-- policies themselves are documents in `resources`; these tables hold their outcome per snapshot, written in the
-- publish's transaction so a snapshot is never seen without its scores.

-- The devices of each asset profile in a snapshot (pruned with the snapshot's rows).
create table security_profile_members (
  discovery_id integer not null references discoveries (id) on delete cascade,
  profile_id integer not null,
  asset_id text not null,
  primary key (discovery_id, profile_id, asset_id)
);
create index security_profile_members_asset on security_profile_members (discovery_id, asset_id);

-- The devices that failed each policy they apply to (pruned with the snapshot's rows).
create table security_policy_failures (
  discovery_id integer not null references discoveries (id) on delete cascade,
  policy_id integer not null,
  asset_id text not null,
  primary key (discovery_id, policy_id, asset_id)
);
create index security_policy_failures_asset on security_policy_failures (discovery_id, asset_id);

-- Each policy as it was evaluated (its name, condition, weight and profiles then) and its outcome: kept after the
-- snapshot's rows are pruned, for trends. `error` says why it could not be evaluated (a timeout): such a policy
-- counts in no score of that snapshot.
create table security_policy_results (
  discovery_id integer not null references discoveries (id) on delete cascade,
  policy_id integer not null,
  name text not null,
  query text not null,
  weight double precision not null,
  profile_ids integer[] not null,
  applicable integer not null,
  failed integer not null,
  error text,
  duration_ms integer not null,
  primary key (discovery_id, policy_id)
);

-- Each scored device: its score, the criticality it was weighed with and the policies it failed (pruned).
create table security_device_scores (
  discovery_id integer not null references discoveries (id) on delete cascade,
  asset_id text not null,
  score integer not null,
  criticality double precision not null,
  failed integer[] not null,
  primary key (discovery_id, asset_id)
);

-- The company's score (profile_id 0) and each profile's, per snapshot: the trend (kept after pruning). A profile
-- whose query could not be evaluated says why in `error` (it then has no devices in that snapshot).
create table security_scores (
  discovery_id integer not null references discoveries (id) on delete cascade,
  company_id integer not null,
  profile_id integer not null,
  score double precision,
  devices integer not null,
  error text,
  primary key (discovery_id, profile_id)
);
create index security_scores_company on security_scores (company_id, profile_id, discovery_id);
