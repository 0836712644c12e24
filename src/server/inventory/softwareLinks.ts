import type { Queryable } from '../db/database.js';
import { compareVersions } from '../../core/software/versions.js';
import { containsPattern } from '../db/likePatterns.js';
import { firstSeenSql } from '../discovery/software/findingSightings.js';

// Reading a snapshot's installations and findings: the software detail's devices and versions, a device's software
// and vulnerabilities panels, a vulnerability's affected devices, and analysts' finding statuses.

export type LinkFilter = { device?: string; software?: string; vulnerability?: string; status?: string; search?: string };
export type FindingStatus = 'open' | 'fixed' | 'false_positive' | 'risk_accepted';

const installationFilter = `i.discovery_id = $1 and ($2::text is null or i.device_asset = $2) and ($3::text is null or i.software_asset = $3)
  and ($4::text is null or i.software_name ilike $4 or i.version ilike $4 or exists (
    select 1 from snapshot_assets d where d.discovery_id = i.discovery_id and d.entity = 'device' and d.asset_id = i.device_asset and d.fields->'Hostname'->>0 ilike $4))`;

/** Installations (device ↔ software ↔ version), every source's observation of one grouped into one row. */
export async function listInstallations(db: Queryable, discoveryId: number, filter: LinkFilter, limit: number, offset: number) {
  const params = [discoveryId, filter.device ?? null, filter.software ?? null, filter.search ? containsPattern(filter.search) : null];
  const [{ count }] = await db.query<{ count: number }>(
    `select count(*)::int as count from (select 1 from snapshot_installations i where ${installationFilter} group by i.device_asset, i.software_asset, i.version) as grouped`, params,
  );
  const rows = await db.query<Record<string, unknown>>(
    `select grouped.*, d.fields->'Hostname'->>0 as hostname, d.fields->'OS.Type'->>0 as os_type, s.fields->'Name'->>0 as software_name, s.fields->'Vendor'->>0 as vendor
       from (select i.device_asset as device_id, i.software_asset as software_id, i.version, min(i.install_date) as install_date, min(i.install_path) as install_path,
                    array_agg(distinct i.adapter order by i.adapter) as adapters
               from snapshot_installations i where ${installationFilter} group by i.device_asset, i.software_asset, i.version) as grouped
       left join snapshot_assets d on d.discovery_id = $1 and d.entity = 'device' and d.asset_id = grouped.device_id
       left join snapshot_assets s on s.discovery_id = $1 and s.entity = 'software' and s.asset_id = grouped.software_id
      order by lower(d.fields->'Hostname'->>0), lower(s.fields->'Name'->>0), grouped.version, grouped.device_id limit $5 offset $6`,
    [...params, limit, offset],
  );
  return { count, rows };
}

/** The versions of one software in a snapshot and how many devices have each, highest version first. */
export async function softwareVersions(db: Queryable, discoveryId: number, softwareId: string): Promise<{ version: string; devices: number }[]> {
  const rows = await db.query<{ version: string; devices: number }>(
    'select version, count(distinct device_asset)::int as devices from snapshot_installations where discovery_id = $1 and software_asset = $2 group by version',
    [discoveryId, softwareId],
  );
  return rows.sort((left, right) => compareVersions(right.version, left.version) || left.version.localeCompare(right.version));
}

const findingColumns = `f.finding_id as id, f.device_asset as device_id, d.fields->'Hostname'->>0 as hostname, d.fields->'OS.Type'->>0 as os_type,
  f.vulnerability_asset as vulnerability_id, f.cve_id, f.title, f.severity, f.score, coalesce(st.status, f.source_status) as status, f.source_status,
  st.reason as status_reason, st.changed_by_name as status_changed_by, st.changed_at as status_changed_at, ${firstSeenSql('f', '$2')} as first_seen, f.last_seen,
  f.ports, f.software, f.adapters, f.sources, coalesce(v.fields->'Kev'->>0 = 'true', false) as kev`;
const findingJoins = `from snapshot_findings f
  left join finding_statuses st on st.company_id = $2 and st.finding_id = f.finding_id
  left join snapshot_assets d on d.discovery_id = f.discovery_id and d.entity = 'device' and d.asset_id = f.device_asset
  left join snapshot_assets v on v.discovery_id = f.discovery_id and v.entity = 'vulnerability' and v.asset_id = f.vulnerability_asset`;
const findingFilter = `f.discovery_id = $1 and ($3::text is null or f.device_asset = $3) and ($4::text is null or f.vulnerability_asset = $4)
  and ($5::text is null or coalesce(st.status, f.source_status) = $5)
  and ($6::text is null or f.cve_id ilike $6 or f.title ilike $6 or d.fields->'Hostname'->>0 ilike $6)`;

/** Findings of a snapshot with their status (the analyst's, else the sources'), the most severe first. */
export async function listFindings(db: Queryable, companyId: number, discoveryId: number, filter: LinkFilter, limit: number, offset: number) {
  const params = [discoveryId, companyId, filter.device ?? null, filter.vulnerability ?? null, filter.status ?? null, filter.search ? containsPattern(filter.search) : null];
  const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count ${findingJoins} where ${findingFilter}`, params);
  const rows = await db.query<Record<string, unknown>>(
    `select ${findingColumns} ${findingJoins} where ${findingFilter}
      order by f.severity_level desc nulls last, f.score desc nulls last, lower(d.fields->'Hostname'->>0), f.finding_id limit $7 offset $8`,
    [...params, limit, offset],
  );
  return { count, rows };
}

/** One finding of a snapshot, or null. */
export async function readFinding(db: Queryable, companyId: number, discoveryId: number, findingId: string): Promise<Record<string, unknown> | null> {
  const [row] = await db.query<Record<string, unknown>>(`select ${findingColumns} ${findingJoins} where f.discovery_id = $1 and f.finding_id = $3`, [discoveryId, companyId, findingId]);
  return row ?? null;
}

/**
 * Records an analyst's status of a finding of a snapshot (replacing their earlier one); it holds in every later
 * snapshot, following the device's source records when correlation regroups the device (followFindingStatuses).
 */
export async function setFindingStatus(db: Queryable, companyId: number, discoveryId: number, findingId: string, status: FindingStatus, reason: string, user: { id: number; name: string }): Promise<void> {
  await db.query(
    `insert into finding_statuses (company_id, finding_id, status, reason, changed_by, changed_by_name, vulnerability_asset, device_record_keys)
     select $1, f.finding_id, $4, $5, $6, $7, f.vulnerability_asset, coalesce(d.record_keys, '{}')
       from snapshot_findings f left join snapshot_assets d on d.discovery_id = f.discovery_id and d.entity = 'device' and d.asset_id = f.device_asset
      where f.discovery_id = $2 and f.finding_id = $3
     on conflict (company_id, finding_id) do update set status = excluded.status, reason = excluded.reason, changed_by = excluded.changed_by,
       changed_by_name = excluded.changed_by_name, changed_at = now(), vulnerability_asset = excluded.vulnerability_asset, device_record_keys = excluded.device_record_keys`,
    [companyId, discoveryId, findingId, status, reason.trim(), user.id, user.name],
  );
}

/**
 * Moves the statuses a new snapshot would strand: a status whose finding id the snapshot lacks goes to the finding
 * of the same vulnerability on the device that now holds one of its device's source records (correlation regrouped
 * the machine, so its asset id, and the finding's id with it, changed). A status already there is left as it is.
 */
export async function followFindingStatuses(db: Queryable, companyId: number, discoveryId: number): Promise<void> {
  await db.query(
    `with stranded as materialized (
       select st.finding_id, st.vulnerability_asset, key.value as key
         from finding_statuses st cross join unnest(st.device_record_keys) as key(value)
        where st.company_id = $1 and st.vulnerability_asset is not null
          and not exists (select 1 from snapshot_findings f where f.discovery_id = $2 and f.finding_id = st.finding_id)
     ), moved as (
       select distinct on (s.finding_id) s.finding_id as old_id, f.finding_id as new_id, d.record_keys
         from stranded s
         join snapshot_findings f on f.discovery_id = $2 and f.vulnerability_asset = s.vulnerability_asset
         join snapshot_assets d on d.discovery_id = $2 and d.entity = 'device' and d.asset_id = f.device_asset and s.key = any(d.record_keys)
        order by s.finding_id, f.finding_id
     )
     update finding_statuses st set finding_id = moved.new_id, device_record_keys = moved.record_keys
       from moved
      where st.company_id = $1 and st.finding_id = moved.old_id
        and not exists (select 1 from finding_statuses taken where taken.company_id = $1 and taken.finding_id = moved.new_id)`,
    [companyId, discoveryId],
  );
}

/** How many findings of a vulnerability have each status. */
export async function findingStatusCounts(db: Queryable, companyId: number, discoveryId: number, vulnerabilityId: string): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; count: number }>(
    `select coalesce(st.status, f.source_status) as status, count(*)::int as count from snapshot_findings f
       left join finding_statuses st on st.company_id = $2 and st.finding_id = f.finding_id
      where f.discovery_id = $1 and f.vulnerability_asset = $3 group by 1`,
    [discoveryId, companyId, vulnerabilityId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}
