import type { MergedAsset } from './mergeAssets.js';
import { shortHostname, valuesOf } from './correlation/identifiers.js';

/** What relations read of an asset: a discovery keeps only this of each asset once the asset is written. */
export type RelatedAsset = Pick<MergedAsset, 'id' | 'adapters' | 'fields'>;

/** A relation a source reported, resolved against the snapshot's assets where it can be. */
export type RelationRow = {
  kind: 'device-user' | 'device-device'; relation: string; deviceAsset: string; relatedAsset: string | null; relatedName: string; adapters: string[];
  /** The switch port and VLAN of a link to a switch or access point, as the network source reported them. */
  port?: string | null; vlan?: string | null;
};

// Device fields that name other things, and what the relation means. Sources put a device's recent users under
// LastUsedUsers; hypervisors and cloud consoles name the host a virtual machine runs on; network sources name
// neighbours: the switch a device is plugged into (with its port and VLAN), the access point it is associated with.
const userFields = [{ field: 'LastUsedUsers', relation: 'last used by' }];
const deviceFields = [
  { field: 'ParentHost', relation: 'runs on', link: false },
  { field: 'ConnectedDevices', relation: 'connected to', link: false },
  { field: 'ConnectedSwitch', relation: 'plugged into switch', link: true },
  { field: 'AccessPoint', relation: 'associated with access point', link: true },
];
/** The fields that qualify a link to a switch or access point. */
const linkFields = ['SwitchPort', 'Vlan'];

const accountFields = ['Username', 'Email', 'UserPrincipalName'];

/** The fields relations read: an asset keeps these (and its id and adapters) for deriveRelations. */
export const relationFields = ['Hostname', ...accountFields, ...userFields.map((item) => item.field), ...deviceFields.map((item) => item.field), ...linkFields];

/** The part of an asset relations read. */
export function relatedAsset(asset: MergedAsset): RelatedAsset {
  const fields: MergedAsset['fields'] = {};
  for (const field of relationFields) if (asset.fields[field]) fields[field] = asset.fields[field];
  return { id: asset.id, adapters: asset.adapters, fields };
}

/** `CORP\jdoe`, `jdoe@corp.example.com` and `jdoe` all name the account `jdoe`. */
export function accountName(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const text = value.trim().toLowerCase();
  const account = text.includes('\\') ? text.split('\\').pop()! : text.split('@')[0];
  return account || null;
}

/** An index from a key to the one asset holding it; keys held by several assets are ambiguous and dropped. */
function uniqueIndex(assets: RelatedAsset[], keysOf: (asset: RelatedAsset) => (string | null)[]): Map<string, string> {
  const index = new Map<string, string | null>();
  for (const asset of assets) {
    for (const key of new Set(keysOf(asset))) {
      if (!key) continue;
      index.set(key, index.has(key) && index.get(key) !== asset.id ? null : asset.id);
    }
  }
  return new Map([...index].filter((entry): entry is [string, string] => entry[1] !== null));
}

/**
 * The device–user and device–device relations of a snapshot, as its sources report them: each named user or host
 * is matched to the one user or device asset carrying that account or host name; unmatched names are kept by name.
 * Before: device A with `LastUsedUsers: ["CORP\\jdoe"]` and user U with `Username: ["jdoe"]`; after: `A last used by U`.
 */
export function deriveRelations(devices: RelatedAsset[], users: RelatedAsset[]): RelationRow[] {
  const usersByAccount = uniqueIndex(users, (user) => accountFields.flatMap((field) => valuesOf(user.fields[field])).map(accountName));
  const devicesByName = uniqueIndex(devices, (device) => valuesOf(device.fields.Hostname).map(shortHostname));
  const rows: RelationRow[] = [];
  for (const device of devices) {
    for (const { field, relation } of userFields) {
      for (const name of new Set(valuesOf(device.fields[field]).map(String))) {
        const account = accountName(name);
        if (account) rows.push({ kind: 'device-user', relation, deviceAsset: device.id, relatedAsset: usersByAccount.get(account) ?? null, relatedName: name, adapters: device.adapters });
      }
    }
    // A device names its port and VLAN once (the first value): they qualify its switch and access point links.
    const [port, vlan] = linkFields.map((field) => valuesOf(device.fields[field]).map(String)[0] ?? null);
    for (const { field, relation, link } of deviceFields) {
      for (const name of new Set(valuesOf(device.fields[field]).map(String))) {
        const host = shortHostname(name);
        const related = host ? devicesByName.get(host) ?? null : null;
        if (!host || related === device.id) continue;
        rows.push({ kind: 'device-device', relation, deviceAsset: device.id, relatedAsset: related, relatedName: name, adapters: device.adapters, ...(link ? { port: field === 'ConnectedSwitch' ? port : null, vlan } : {}) });
      }
    }
  }
  return rows;
}
