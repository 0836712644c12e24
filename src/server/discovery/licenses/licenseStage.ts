import { softwareIdentity } from '../../../core/software/names.js';
import type { Queryable } from '../../db/database.js';
import type { MergedAsset } from '../mergeAssets.js';
import { inBatches, writeAssets } from '../snapshotWriter.js';
import { firstText, inventoryAssetId, observations, type ObservationWarnings } from '../software/observations.js';
import { amountOf, isoDateOf, maximumCost, maximumSeats, namesOf } from './licenseValues.js';

// The license inventory of a snapshot: entitlements (`license` records of Microsoft 365, Snipe-IT, ServiceNow or a
// CSV/XLSX of contracts) against their use. Entitlements of one license name are one license; within one source they
// add up (two purchases), across sources the largest is kept (two systems describing one purchase). Use is the
// largest of what a source reports as consumed, the users it is assigned to (by the source, the file, or users whose
// `AssignedLicenses` name its SKU, as Entra ID reports them) and the devices that have its software installed.

type Entitlement = { seats: number | null; reportedUsed: number | null; cost: number | null };

/** What the discovery gathers of one license while it reads the records. */
export type LicenseEntry = {
  name: string;
  vendor: string | null;
  softwareName: string | null;
  skus: Set<string>;
  metric: string | null;
  byConnection: Map<number, Entitlement>;
  expiration: string | null;
  purchase: string | null;
  currency: string | null;
  users: Map<string, { adapter: string; connectionId: number }>;
  adapters: Set<string>;
  connections: Set<number>;
  recordKeys: string[];
};

const keptUsersPerLicense = 100_000;
const keptRecordKeys = 1000;

const add = (left: number | null, right: number | null) => (left === null ? right : right === null ? left : left + right);

/** The largest value over the connections' entitlements, or null when none says. */
function largest(entry: LicenseEntry, pick: (entitlement: Entitlement) => number | null): number | null {
  const values = [...entry.byConnection.values()].map(pick).filter((value): value is number => value !== null);
  return values.length ? Math.max(...values) : null;
}

/** Software of the snapshot by what a license may name it by: folding key, name, and product key under any vendor. */
async function softwareIndex(db: Queryable, discoveryId: number) {
  const rows = await db.query<{ asset_id: string; key: string | null; name: string | null; installs: number | null }>(
    `select asset_id, fields->'NormalizedName'->>0 as key, lower(fields->'Name'->>0) as name, (fields->'InstallCount'->>0)::int as installs
       from snapshot_assets where discovery_id = $1 and entity = 'software'`,
    [discoveryId],
  );
  const byKey = new Map<string, (typeof rows)[number]>();
  const byName = new Map<string, (typeof rows)[number]>();
  const byProduct = new Map<string, (typeof rows)[number] | null>();
  for (const row of rows) {
    if (row.key) byKey.set(row.key, row);
    if (row.name) byName.set(row.name, row);
    const product = row.key?.split('|')[1];
    // A product two vendors make names neither.
    if (product) byProduct.set(product, byProduct.has(product) ? null : row);
  }
  return (name: string, vendor: string | null) => {
    const identity = softwareIdentity(name, vendor);
    return (identity && (byKey.get(identity.key) ?? byProduct.get(identity.productKey))) || byName.get(name.toLowerCase()) || null;
  };
}

/** Merged users of the snapshot by user name, email and UPN (lower-cased), and the SKUs Entra ID says each holds. */
async function userIndex(db: Queryable, discoveryId: number) {
  const rows = await db.query<{ asset_id: string; names: string[]; skus: string[] }>(
    `select asset_id,
            array(select lower(value) from jsonb_array_elements_text(coalesce(fields->'Username', '[]') || coalesce(fields->'Email', '[]') || coalesce(fields->'UserPrincipalName', '[]')) as names(value)) as names,
            array(select lower(value) from jsonb_array_elements_text(coalesce(fields->'AssignedLicenses', '[]')) as skus(value)) as skus
       from snapshot_assets where discovery_id = $1 and entity = 'user'`,
    [discoveryId],
  );
  const byName = new Map<string, string>();
  const bySku = new Map<string, { asset: string; name: string }[]>();
  for (const row of rows) {
    for (const name of row.names) byName.set(name, row.asset_id);
    for (const sku of row.skus) {
      const holders = bySku.get(sku) ?? [];
      if (!holders.length) bySku.set(sku, holders);
      holders.push({ asset: row.asset_id, name: row.names[0] ?? row.asset_id });
    }
  }
  return { byName, bySku };
}

/** What a seat is, from the source's metric: per user, per device, or not said ("named user" → user, "per node" → device). */
export function seatTypeOf(metric: string | null): 'user' | 'device' | null {
  if (!metric) return null;
  if (/user|named|person|subscri|mailbox|seat/.test(metric)) return 'user';
  if (/device|machine|computer|node|endpoint|host|server|install|workstation/.test(metric)) return 'device';
  return null;
}

type SeatCount = { by: 'reported' | 'assigned_users' | 'installed_devices'; count: number };

/**
 * Which count the seats in use are, and why in words: the seat type decides what may count (users for a per-user
 * license, devices for a per-device one, any otherwise); of those, the largest, the source's own report winning a tie.
 */
export function seatsUsed(seatType: 'user' | 'device' | null, reportedUsed: number | null, assignedUsers: number, installedDevices: number): SeatCount & { reason: string } {
  const counts: SeatCount[] = [
    ...(reportedUsed !== null ? [{ by: 'reported' as const, count: reportedUsed }] : []),
    ...(seatType !== 'device' ? [{ by: 'assigned_users' as const, count: assignedUsers }] : []),
    ...(seatType !== 'user' ? [{ by: 'installed_devices' as const, count: installedDevices }] : []),
  ];
  const chosen = counts.reduce((best, next) => (next.count > best.count ? next : best));
  const what = { reported: 'the count its source reports', assigned_users: 'the users it is assigned to', installed_devices: 'the devices that have its software installed' }[chosen.by];
  const rule = seatType === 'user' ? 'A seat is a user' : seatType === 'device' ? 'A seat is a device' : 'The seat type is not known';
  const others = counts.filter((count) => count !== chosen).map((count) => `${count.count.toLocaleString('en')} ${{ reported: 'reported', assigned_users: 'assigned users', installed_devices: 'devices with the software' }[count.by]}`);
  return { ...chosen, reason: `${rule}: seats used are ${what} (${chosen.count.toLocaleString('en')})${others.length ? `, the largest against ${others.join(' and ')}` : ''}.` };
}

/** The license asset of an entry, its use counted; an expired license (at `now`) has no seat free. */
export function licenseAsset(id: string, entry: LicenseEntry, software: { asset_id: string; installs: number | null } | null, assignedUsers: number, now = new Date()): MergedAsset {
  const seats = largest(entry, (entitlement) => entitlement.seats);
  const reportedUsed = largest(entry, (entitlement) => entitlement.reportedUsed);
  const cost = largest(entry, (entitlement) => entitlement.cost);
  const installed = software?.installs ?? 0;
  const seatType = seatTypeOf(entry.metric);
  const use = seatsUsed(seatType, reportedUsed, assignedUsers, installed);
  const used = use.count;
  const expired = entry.expiration !== null && entry.expiration < now.toISOString();
  const adapters = [...entry.adapters].sort();
  const fields: MergedAsset['fields'] = {
    Name: [entry.name],
    ...(entry.vendor && { Vendor: [entry.vendor] }),
    ...(entry.softwareName && { SoftwareName: [entry.softwareName] }),
    ...(software && { SoftwareId: [software.asset_id] }),
    ...(entry.skus.size && { Sku: [...entry.skus] }),
    ...(entry.metric && { Metric: [entry.metric] }),
    ...(seatType && { SeatType: [seatType] }),
    ...(seats !== null && { SeatsPurchased: [seats], SeatsFree: [expired ? 0 : Math.max(seats - used, 0)], OverUse: [Math.max(used - seats, 0)], OverUsed: [used > seats] }),
    SeatsUsed: [used],
    SeatsUsedBy: [use.by],
    SeatsUsedReason: [use.reason],
    Expired: [expired],
    ...(reportedUsed !== null && { ReportedUsed: [reportedUsed] }),
    AssignedUsers: [assignedUsers],
    InstalledDevices: [installed],
    ...(entry.expiration && { ExpirationDate: [entry.expiration] }),
    ...(entry.purchase && { PurchaseDate: [entry.purchase] }),
    ...(cost !== null && { Cost: [cost] }),
    ...(entry.currency && { Currency: [entry.currency] }),
    Adapters: adapters,
    AdapterCount: [adapters.length],
    Connections: [...entry.connections].sort((left, right) => left - right),
    PrimaryKey: [id],
  };
  return { id, fields, specifics: {}, preferred: {}, recordKeys: entry.recordKeys, adapters, reasons: [] };
}

/**
 * Builds the license inventory of a snapshot once its users and software are merged: the `license` records folded
 * by name, matched to their software, their user assignments written as rows, and one license asset written per
 * license with seats bought, used, free and over-use. Answers how many licenses it wrote.
 */
export async function buildLicenseInventory(db: Queryable, discoveryId: number, warnings: ObservationWarnings): Promise<number> {
  const entries = new Map<string, LicenseEntry>();
  for await (const record of observations(db, discoveryId, ['license'])) {
    const { fields } = record;
    const name = firstText(fields.LicenseName) ?? firstText(fields.Name) ?? firstText(fields.SoftwareName);
    if (!name || name.length > 500) {
      warnings.add(record.connectionId, name ? 'license names longer than 500 characters were skipped' : 'license records without a name were skipped', record.key);
      continue;
    }
    const key = name.toLowerCase().replace(/\s+/g, ' ');
    let entry = entries.get(key);
    if (!entry) {
      entry = { name, vendor: null, softwareName: null, skus: new Set(), metric: null, byConnection: new Map(), expiration: null, purchase: null, currency: null, users: new Map(), adapters: new Set(), connections: new Set(), recordKeys: [] };
      entries.set(key, entry);
    }
    entry.vendor ??= firstText(fields.SoftwareVendor) ?? firstText(fields.Vendor);
    entry.softwareName ??= firstText(fields.SoftwareName);
    const sku = firstText(fields.Sku);
    if (sku && entry.skus.size < 20) entry.skus.add(sku.slice(0, 200));
    entry.metric ??= firstText(fields.Metric)?.toLowerCase().slice(0, 50) ?? null;
    entry.currency ??= firstText(fields.Currency)?.toUpperCase().slice(0, 10) ?? null;
    const read = (field: string, maximum: number) => {
      const text = firstText(fields[field]);
      const value = amountOf(fields[field]?.[0], maximum);
      if (text !== null && value === null) warnings.add(record.connectionId, `license ${field} values that are no number from 0 to ${maximum.toLocaleString('en')} were left out`, text.slice(0, 60));
      return value;
    };
    const seats = read('SeatsPurchased', maximumSeats);
    const free = read('SeatsFree', maximumSeats);
    // Snipe-IT says how many seats are free rather than used.
    const reportedUsed = read('SeatsUsed', maximumSeats) ?? (seats !== null && free !== null ? Math.max(seats - free, 0) : null);
    const cost = read('Cost', maximumCost);
    const held = entry.byConnection.get(record.connectionId) ?? { seats: null, reportedUsed: null, cost: null };
    entry.byConnection.set(record.connectionId, { seats: add(held.seats, seats), reportedUsed: add(held.reportedUsed, reportedUsed), cost: add(held.cost, cost) });
    for (const [field, into] of [['ExpirationDate', 'expiration'], ['PurchaseDate', 'purchase']] as const) {
      const text = firstText(fields[field]);
      const date = isoDateOf(text);
      if (text && !date) warnings.add(record.connectionId, `license ${field} values that are no date were left out`, text.slice(0, 60));
      // The earliest expiry is when seats start to lapse.
      if (date && (!entry[into] || date < entry[into]!)) entry[into] = date;
    }
    for (const user of namesOf(fields.AssignedUsers)) {
      if (entry.users.size >= keptUsersPerLicense) break;
      if (!entry.users.has(user.toLowerCase())) entry.users.set(user.toLowerCase(), { adapter: record.adapter, connectionId: record.connectionId });
    }
    entry.adapters.add(record.adapter);
    entry.connections.add(record.connectionId);
    if (entry.recordKeys.length < keptRecordKeys) entry.recordKeys.push(record.key);
  }
  if (!entries.size) return 0;
  const findSoftware = await softwareIndex(db, discoveryId);
  const users = await userIndex(db, discoveryId);
  const assets: MergedAsset[] = [];
  for (const [key, entry] of entries) {
    const id = inventoryAssetId('license', key);
    const assignments = new Map<string, { asset: string | null; name: string; adapter: string; connectionId: number }>();
    for (const [name, source] of entry.users) {
      const asset = users.byName.get(name) ?? null;
      assignments.set(asset ?? `name:${name}`, { asset, name, ...source });
    }
    // Entra ID says which SKUs a user holds; the license's own source is the one that holds the SKU.
    for (const sku of entry.skus) {
      for (const user of users.bySku.get(sku.toLowerCase()) ?? []) {
        if (!assignments.has(user.asset)) assignments.set(user.asset, { asset: user.asset, name: user.name, adapter: [...entry.adapters][0], connectionId: [...entry.connections][0] });
      }
    }
    await inBatches([...assignments.values()], (batch) =>
      db.query(
        `insert into snapshot_license_assignments (discovery_id, license_asset, user_asset, user_name, adapter, connection_id)
         select $1, $2, u, n, a, c from json_to_recordset($3::json) as batch(u text, n text, a text, c int)`,
        [discoveryId, id, JSON.stringify(batch.map((row) => ({ u: row.asset, n: row.name, a: row.adapter, c: row.connectionId })))],
      ),
    );
    const software = findSoftware(entry.softwareName ?? entry.name, entry.vendor);
    assets.push(licenseAsset(id, entry, software, assignments.size));
  }
  await writeAssets(db, discoveryId, 'license', assets);
  return assets.length;
}
