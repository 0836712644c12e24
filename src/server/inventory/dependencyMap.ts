import type { Queryable } from '../db/database.js';
import { NotFound } from '../errors.js';

/** A thing the map draws around the device: a neighbouring device, a user, or an installed software product. */
export type MapNode = { id: string | null; name: string; entity: 'device' | 'user' | 'software' };
/**
 * A link from the device to a node. `direction` says who reported it: `out` the device itself (it runs on a host, is
 * plugged into a switch, was last used by someone), `in` the other device (a virtual machine on this host, a client
 * on this switch). Port and VLAN qualify links to switches and access points.
 */
export type MapLink = { node: MapNode; relation: string; direction: 'out' | 'in'; port: string | null; vlan: string | null };
export type DependencyMap = { index_id: number; device: { id: string; name: string }; links: MapLink[]; software: MapNode[]; more: { neighbours: number; users: number; software: number } };

/** How many of each kind the map draws: a small graph stays readable; the rest are counted under `more`. */
export const mapLimits = { neighbours: 12, users: 6, software: 8 };

type RelationRow = { kind: string; relation: string; device_asset: string; related_asset: string | null; related_name: string; port: string | null; vlan: string | null; label: string | null };

/**
 * The dependency map of one device in one snapshot: its neighbours (devices it names and devices that name it), its
 * users and its software, read from the snapshot's relations and installations.
 */
export async function dependencyMap(db: Queryable, discoveryId: number, deviceId: string): Promise<DependencyMap> {
  const [device] = await db.query<{ name: string | null }>(
    "select fields->'Hostname'->>0 as name from snapshot_assets where discovery_id = $1 and entity = 'device' and asset_id = $2", [discoveryId, deviceId],
  );
  if (!device) throw new NotFound({ detail: 'Not found.' });
  const relations = await db.query<RelationRow>(
    `select r.kind, r.relation, r.device_asset, r.related_asset, r.related_name, r.port, r.vlan,
            case when r.device_asset = $2 then coalesce(u.fields->'Hostname'->>0, u.fields->'DisplayName'->>0, u.fields->'Username'->>0) else d.fields->'Hostname'->>0 end as label
       from snapshot_relations r
       left join snapshot_assets u on u.discovery_id = r.discovery_id and u.entity = case when r.kind = 'device-user' then 'user' else 'device' end and u.asset_id = r.related_asset
       left join snapshot_assets d on d.discovery_id = r.discovery_id and d.entity = 'device' and d.asset_id = r.device_asset
      where r.discovery_id = $1 and (r.device_asset = $2 or (r.kind = 'device-device' and r.related_asset = $2))
      order by r.kind, r.relation, r.related_name, r.id`,
    [discoveryId, deviceId],
  );
  const links = relations.map((row): MapLink => {
    const out = row.device_asset === deviceId;
    const entity = row.kind === 'device-user' ? 'user' : 'device';
    const node: MapNode = out ? { id: row.related_asset, name: row.label ?? row.related_name, entity } : { id: row.device_asset, name: row.label ?? row.device_asset, entity: 'device' };
    return { node, relation: row.relation, direction: out ? 'out' : 'in', port: row.port, vlan: row.vlan };
  });
  const neighbours = links.filter((link) => link.node.entity === 'device');
  const users = links.filter((link) => link.node.entity === 'user');
  const software = await db.query<{ id: string; name: string | null; total: number }>(
    `select i.software_asset as id, min(s.fields->'Name'->>0) as name, count(*) over ()::int as total
       from snapshot_installations i left join snapshot_assets s on s.discovery_id = i.discovery_id and s.entity = 'software' and s.asset_id = i.software_asset
      where i.discovery_id = $1 and i.device_asset = $2 group by i.software_asset order by lower(min(s.fields->'Name'->>0)), i.software_asset limit $3`,
    [discoveryId, deviceId, mapLimits.software],
  );
  return {
    index_id: discoveryId, device: { id: deviceId, name: device.name ?? deviceId },
    links: [...neighbours.slice(0, mapLimits.neighbours), ...users.slice(0, mapLimits.users)],
    software: software.map((row) => ({ id: row.id, name: row.name ?? row.id, entity: 'software' })),
    more: {
      neighbours: Math.max(0, neighbours.length - mapLimits.neighbours), users: Math.max(0, users.length - mapLimits.users),
      software: Math.max(0, (software[0]?.total ?? 0) - software.length),
    },
  };
}
