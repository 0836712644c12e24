import type { Queryable } from '../../db/database.js';
import type { MergedAsset } from '../mergeAssets.js';
import { writeAssets, writeBehind } from '../snapshotWriter.js';
import type { DeviceLinks } from '../software/deviceLinks.js';
import { extremeDate, firstText, inventoryAssetId, observations, type ObservationWarnings } from '../software/observations.js';

// The service inventory of a snapshot: every `service` record (a Windows service or daemon an EDR, MDM or SCCM
// reports on a device, an open port and its banner from the network scanner, a cloud or cluster service) becomes an
// instance row linked to its merged device, and the records are folded by service name into one service asset each.

const rowsPerWrite = 1000;
// Bounds on what one service entry lists, so a name reported in thousands of variants stays one row.
const keptValues = 50;
const keptPorts = 200;
// Text kept of a value a source reports: a banner or path is shown, never parsed, and one odd record cannot bloat a row.
const keptText = 500;

/** What the discovery gathers of one service while it reads the records. */
type ServiceEntry = {
  names: Map<string, number>;
  displayNames: Set<string>;
  kinds: Set<string>;
  ports: Set<number>;
  protocols: Set<string>;
  products: Set<string>;
  states: Set<string>;
  startTypes: Set<string>;
  accounts: Set<string>;
  adapters: Set<string>;
  connections: Set<number>;
  instances: number;
  lastSeen: string | null;
};

const newEntry = (): ServiceEntry => ({
  names: new Map(), displayNames: new Set(), kinds: new Set(), ports: new Set(), protocols: new Set(), products: new Set(), states: new Set(),
  startTypes: new Set(), accounts: new Set(), adapters: new Set(), connections: new Set(), instances: 0, lastSeen: null,
});

function addBounded<T>(into: Set<T>, value: T | null, limit = keptValues): void {
  if (value !== null && into.size < limit) into.add(value);
}

const clip = (text: string | null): string | null => (text === null ? null : text.slice(0, keptText));

// Vendors spell states and start types their own way: Windows "Running" / "Auto", systemd "active" / "enabled".
const stateWords: Record<string, string> = { running: 'running', active: 'running', started: 'running', stopped: 'stopped', inactive: 'stopped', dead: 'stopped', failed: 'failed', paused: 'paused', listening: 'listening', open: 'listening' };
const startTypeWords: Record<string, string> = { auto: 'automatic', automatic: 'automatic', enabled: 'automatic', 'auto start': 'automatic', manual: 'manual', 'demand start': 'manual', disabled: 'disabled', masked: 'disabled', boot: 'boot', system: 'system', static: 'static' };

/** `"Running"` → `running`, `"Start Pending"` → `start pending`: known words folded, others lower-cased as written. */
function normalizedWord(value: string | null, words: Record<string, string>): string | null {
  if (!value) return null;
  const text = value.trim().toLowerCase().replace(/[_\s]+/g, ' ');
  return words[text] ?? words[text.replace(/ /g, '')] ?? text.slice(0, 50);
}

/** A port as a number, or null for anything that is not one (`"22"` → 22, `"ssh"` → null, 70000 → null). */
function portOf(values: unknown[] | undefined): number | null {
  const text = firstText(values);
  if (!text || !/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 0 && port <= 65535 ? port : null;
}

const deviceIdentifiers = ['DeviceId', 'AgentId', 'Hostname', 'SerialNumber', 'MacAddresses', 'IpAddresses'];

/**
 * What kind of service a record reports: as the source says (`ServiceKind`), else an open port with no start type is
 * a network service, a record naming no device a cloud service, and the rest system services of their device.
 */
function kindOf(fields: Record<string, unknown[]>, port: number | null, startType: string | null): string {
  const said = firstText(fields.ServiceKind)?.toLowerCase();
  if (said && ['system', 'network', 'cloud'].includes(said)) return said;
  if (port !== null && !startType) return 'network';
  if (!deviceIdentifiers.some((field) => fields[field]?.length)) return 'cloud';
  return 'system';
}

/** The service asset of an entry: the name most sources use, ports lowest first. */
function serviceAsset(key: string, entry: ServiceEntry, devices: { all: number; running: number }): MergedAsset {
  const id = inventoryAssetId('service', key);
  const names = [...entry.names.entries()].sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0])).map(([name]) => name);
  const adapters = [...entry.adapters].sort();
  const list = <T,>(values: Set<T>) => [...values].sort();
  const fields: MergedAsset['fields'] = {
    Name: [names[0]],
    ...(entry.displayNames.size && { DisplayName: list(entry.displayNames) }),
    Kinds: list(entry.kinds),
    ...(entry.ports.size && { Ports: [...entry.ports].sort((left, right) => left - right) }),
    ...(entry.protocols.size && { Protocols: list(entry.protocols) }),
    ...(entry.products.size && { Products: list(entry.products) }),
    ...(entry.states.size && { States: list(entry.states) }),
    ...(entry.startTypes.size && { StartTypes: list(entry.startTypes) }),
    ...(entry.accounts.size && { Accounts: list(entry.accounts) }),
    DeviceCount: [devices.all],
    RunningCount: [devices.running],
    InstanceCount: [entry.instances],
    Adapters: adapters,
    AdapterCount: [adapters.length],
    Connections: [...entry.connections].sort((left, right) => left - right),
    ...(entry.lastSeen && { LastSeen: [entry.lastSeen] }),
    PrimaryKey: [id],
  };
  return { id, fields, specifics: {}, preferred: {}, recordKeys: [], adapters, reasons: [] };
}

type InstanceRow = {
  s: string; d: string | null; h: string | null; n: string; dn: string | null; st: string | null; t: string | null; ac: string | null;
  p: number | null; pr: string | null; pd: string | null; v: string | null; b: string | null; pa: string | null; l: string | null; a: string; c: number;
};

function writeInstances(db: Queryable, discoveryId: number, rows: InstanceRow[]): Promise<unknown> {
  return db.query(
    `insert into snapshot_service_instances (discovery_id, service_asset, device_asset, host, service_name, display_name, state, start_type, account, port, protocol, product, version, banner, path, last_seen, adapter, connection_id)
     select $1, s, d, h, n, dn, st, t, ac, p, pr, pd, v, b, pa, l, a, c
       from json_to_recordset($2::json) as batch(s text, d text, h text, n text, dn text, st text, t text, ac text, p int, pr text, pd text, v text, b text, pa text, l text, a text, c int)`,
    [discoveryId, JSON.stringify(rows)],
  );
}

/**
 * Builds the service inventory of a snapshot from its `service` records: each written as an instance linked to its
 * merged device as it is read (a cloud service stays an instance of no device), the records folded by service name
 * into entries, and one service asset written per entry with its device counts. Answers how many services it wrote.
 */
export async function buildServiceInventory(db: Queryable, discoveryId: number, devices: DeviceLinks, warnings: ObservationWarnings): Promise<number> {
  const entries = new Map<string, ServiceEntry>();
  const writer = writeBehind();
  let batch: InstanceRow[] = [];
  for await (const record of observations(db, discoveryId, ['service'])) {
    const { fields } = record;
    const name = clip(firstText(fields.ServiceName) ?? firstText(fields.DisplayName));
    if (!name) {
      warnings.add(record.connectionId, 'service records without a service name were skipped', record.key);
      continue;
    }
    const port = portOf(fields.Port ?? fields.PortNumber);
    if (port === null && firstText(fields.Port ?? fields.PortNumber)) warnings.add(record.connectionId, 'service ports that are no port number (0–65535) were left out', firstText(fields.Port ?? fields.PortNumber));
    const startType = normalizedWord(firstText(fields.StartType), startTypeWords);
    const kind = kindOf(fields, port, startType);
    const state = normalizedWord(firstText(fields.State), stateWords) ?? (kind === 'network' ? 'listening' : null);
    const product = clip(firstText(fields.Product));
    const version = clip(firstText(fields.Version));
    const protocol = firstText(fields.Protocol)?.toLowerCase().slice(0, 20) ?? null;
    const account = clip(firstText(fields.Account));
    const displayName = clip(firstText(fields.DisplayName));
    const lastSeen = extremeDate(null, fields.LastSeen, true);
    const key = name.toLowerCase();
    let entry = entries.get(key);
    if (!entry) entries.set(key, (entry = newEntry()));
    if (entry.names.size < keptValues || entry.names.has(name)) entry.names.set(name, (entry.names.get(name) ?? 0) + 1);
    if (displayName && displayName !== name) addBounded(entry.displayNames, displayName);
    entry.kinds.add(kind);
    if (port !== null) addBounded(entry.ports, port, keptPorts);
    addBounded(entry.protocols, protocol);
    addBounded(entry.products, product ? (version ? `${product} ${version}` : product) : null);
    addBounded(entry.states, state);
    addBounded(entry.startTypes, startType);
    addBounded(entry.accounts, account);
    entry.adapters.add(record.adapter);
    entry.connections.add(record.connectionId);
    entry.instances += 1;
    entry.lastSeen = extremeDate(entry.lastSeen, lastSeen ? [lastSeen] : [], true);
    const device = kind === 'cloud' ? null : devices.link(record.connectionId, fields);
    if (!device && kind !== 'cloud') warnings.add(record.connectionId, 'service records matched no device of the snapshot', record.key);
    batch.push({
      s: inventoryAssetId('service', key), d: device?.asset ?? null, h: clip(firstText(fields.Host) ?? firstText(fields.Hostname) ?? firstText(fields.IpAddresses)), n: name, dn: displayName,
      st: state, t: startType, ac: account, p: port, pr: protocol, pd: product, v: version, b: clip(firstText(fields.Banner)), pa: clip(firstText(fields.Path)), l: lastSeen, a: record.adapter, c: record.connectionId,
    });
    if (batch.length >= rowsPerWrite) {
      const rows = batch;
      batch = [];
      await writer.push(() => writeInstances(db, discoveryId, rows));
    }
  }
  if (batch.length) await writer.push(() => writeInstances(db, discoveryId, batch));
  await writer.drain();
  if (!entries.size) return 0;
  const counts = new Map(
    (await db.query<{ service_asset: string; devices: number; running: number }>(
      `select service_asset, count(distinct device_asset)::int as devices, count(distinct device_asset) filter (where state in ('running', 'listening'))::int as running
         from snapshot_service_instances where discovery_id = $1 group by service_asset`,
      [discoveryId],
    )).map((row) => [row.service_asset, { all: row.devices, running: row.running }]),
  );
  const assets = [...entries].map(([key, entry]) => serviceAsset(key, entry, counts.get(inventoryAssetId('service', key)) ?? { all: 0, running: 0 }));
  await writeAssets(db, discoveryId, 'service', assets);
  return assets.length;
}
