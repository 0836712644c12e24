import type { Queryable } from '../db/database.js';
import { containsPattern } from '../db/likePatterns.js';

// Reading a snapshot's service instances and license assignments: the service detail's places, a device's services
// and open ports panel, and the users a license is assigned to.

export type ServiceLicenseFilter = { device?: string; service?: string; license?: string; user?: string; search?: string };

const instanceFilter = `i.discovery_id = $1 and ($2::text is null or i.device_asset = $2) and ($3::text is null or i.service_asset = $3)
  and ($4::text is null or i.service_name ilike $4 or i.display_name ilike $4 or i.product ilike $4 or i.host ilike $4 or exists (
    select 1 from snapshot_assets d where d.discovery_id = i.discovery_id and d.entity = 'device' and d.asset_id = i.device_asset and d.fields->'Hostname'->>0 ilike $4))`;

// Every source's report of one service in one place (device or host, port) is one row.
const instanceGroup = 'i.service_asset, i.device_asset, i.host, i.port, i.protocol';

/** Where services run: service ↔ device (or host) ↔ port, every source's report of one folded into one row. */
export async function listServiceInstances(db: Queryable, discoveryId: number, filter: ServiceLicenseFilter, limit: number, offset: number) {
  const params = [discoveryId, filter.device ?? null, filter.service ?? null, filter.search ? containsPattern(filter.search) : null];
  const [{ count }] = await db.query<{ count: number }>(
    `select count(*)::int as count from (select 1 from snapshot_service_instances i where ${instanceFilter} group by ${instanceGroup}) as grouped`, params,
  );
  const rows = await db.query<Record<string, unknown>>(
    `select grouped.*, d.fields->'Hostname'->>0 as hostname, d.fields->'OS.Type'->>0 as os_type
       from (select i.service_asset as service_id, i.device_asset as device_id, i.host, i.port, i.protocol, max(i.service_name) as service_name,
                    max(i.display_name) as display_name, max(i.state) as state, max(i.start_type) as start_type, max(i.account) as account,
                    max(i.product) as product, max(i.version) as version, max(i.banner) as banner, max(i.path) as path, max(i.last_seen) as last_seen,
                    array_agg(distinct i.adapter order by i.adapter) as adapters
               from snapshot_service_instances i where ${instanceFilter} group by ${instanceGroup}) as grouped
       left join snapshot_assets d on d.discovery_id = $1 and d.entity = 'device' and d.asset_id = grouped.device_id
      order by lower(coalesce(d.fields->'Hostname'->>0, grouped.host)), lower(grouped.service_name), grouped.port nulls first, grouped.service_id, grouped.device_id limit $5 offset $6`,
    [...params, limit, offset],
  );
  return { count, rows };
}

const assignmentFilter = `a.discovery_id = $1 and ($2::text is null or a.license_asset = $2) and ($3::text is null or a.user_asset = $3)
  and ($4::text is null or a.user_name ilike $4 or u.fields->'DisplayName'->>0 ilike $4 or l.fields->'Name'->>0 ilike $4)`;
const assignmentJoins = `from snapshot_license_assignments a
  left join snapshot_assets u on u.discovery_id = a.discovery_id and u.entity = 'user' and u.asset_id = a.user_asset
  left join snapshot_assets l on l.discovery_id = a.discovery_id and l.entity = 'license' and l.asset_id = a.license_asset`;

/** Users licenses are assigned to, with the merged user when one matched the name a source gave. */
export async function listLicenseAssignments(db: Queryable, discoveryId: number, filter: ServiceLicenseFilter, limit: number, offset: number) {
  const params = [discoveryId, filter.license ?? null, filter.user ?? null, filter.search ? containsPattern(filter.search) : null];
  const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count ${assignmentJoins} where ${assignmentFilter}`, params);
  const rows = await db.query<Record<string, unknown>>(
    `select a.license_asset as license_id, l.fields->'Name'->>0 as license_name, a.user_asset as user_id, a.user_name as reported_name,
            u.fields->'Username'->>0 as username, u.fields->'DisplayName'->>0 as display_name, u.fields->'Email'->>0 as email, a.adapter
       ${assignmentJoins} where ${assignmentFilter}
      order by lower(coalesce(u.fields->'DisplayName'->>0, a.user_name)), a.user_name, a.license_asset limit $5 offset $6`,
    [...params, limit, offset],
  );
  return { count, rows };
}
