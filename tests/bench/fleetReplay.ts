// The discovery bench's sources: the generated fleet served by the replay server (fleetReplayRoutes.ts) in a child
// process, so the bench's peak RSS measures Cartograph alone; the connections that reach it; and the link from the
// vendor ids a discovery fetched back to the fleet's truth, to score its merges.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateLabelledFleet, type LabelledFleet } from '../../src/server/demo/fleet.js';
import { replayCredentials } from './fleetReplayRoutes.js';
import { replayStreams } from './fleetVendors.js';

const fleetSeed = 42;
const overlapShare = 0.6;

/** Real devices per source set: device → the connection ids that report it. */
function sourcesByDevice(fleet: LabelledFleet): Map<string, Set<number>> {
  const sources = new Map<string, Set<number>>();
  for (const record of fleet.records) {
    const device = fleet.truth.get(record.key)!;
    sources.set(device, (sources.get(device) ?? new Set()).add(record.connectionId));
  }
  return sources;
}

/**
 * Thins a fleet so that `share` of its devices are reported by two or more sources (the bench's 60%): the other
 * multi-source devices keep their first source's records only. Deterministic, so every run measures the same data.
 */
export function thinToOverlap(fleet: LabelledFleet, share: number): LabelledFleet {
  const sources = sourcesByDevice(fleet);
  const multi = [...sources.values()].filter((set) => set.size >= 2).length;
  const keepMulti = Math.min(1, (share * sources.size) / multi);
  let seen = 0;
  const single = new Map<string, number>();
  for (const [device, set] of sources) {
    if (set.size < 2) continue;
    seen += 1;
    // Every device whose running position falls outside the kept share loses all but its first source.
    if (Math.floor(seen * keepMulti) === Math.floor((seen - 1) * keepMulti)) single.set(device, [...set][0]);
  }
  const records = fleet.records.filter((record) => {
    const only = single.get(fleet.truth.get(record.key)!);
    return only === undefined || only === record.connectionId;
  });
  return { ...fleet, records, truth: new Map(records.map((record) => [record.key, fleet.truth.get(record.key)!])) };
}

/** Share of real devices that two or more sources report. */
export function overlap(fleet: LabelledFleet): number {
  const sources = [...sourcesByDevice(fleet).values()];
  return Number((sources.filter((set) => set.size >= 2).length / sources.length).toFixed(3));
}

/** The bench's fleet of `devices` devices: always the same seed and overlap, in the parent and in the replay child. */
export function benchFleet(devices: number): LabelledFleet {
  return thinToOverlap(generateLabelledFleet(devices, fleetSeed), overlapShare);
}

/** What the replay child reports once it listens: its URL and what it serves. */
export type FleetReplayReady = { url: string; served: Record<string, number>; devices_in_two_or_more_sources: number };

/** Starts the replay server for a fleet of `devices` (and its software) in a child process; `stop` (also run on exit) ends it. */
export async function startFleetReplay(devices: number, withSoftware = false): Promise<FleetReplayReady & { stop: () => Promise<void> }> {
  const entry = fileURLToPath(new URL('./fleetReplayServer.ts', import.meta.url));
  const child: ChildProcess = fork(entry, [String(devices), ...(withSoftware ? ['software'] : [])], { execArgv: ['--import', 'tsx'], cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  const killChild = () => child.kill();
  // A bench that dies without reaching `stop` takes its server with it (the child also exits when the IPC link closes).
  process.once('exit', killChild);
  const stop = async () => {
    process.off('exit', killChild);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  };
  try {
    const ready = await new Promise<FleetReplayReady>((resolve, reject) => {
      child.once('message', (message) => resolve(message as FleetReplayReady));
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`the replay server exited before listening (${signal ?? code})`)));
    });
    return { ...ready, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The five connections of the bench, one per source, each reaching the replay server at `url`; the EDR's software and findings when `withSoftware`. */
export function replayConnections(url: string, withSoftware = false): { adapter: string; name: string; config: Record<string, unknown> }[] {
  const entraAuth = { auth_type: 'entra_client_secret', tenant_id: replayCredentials.tenantId, client_id: replayCredentials.clientId, client_secret: replayCredentials.clientSecret };
  const basic = { auth_type: 'basic', username: replayCredentials.username, password: replayCredentials.password };
  return [
    { adapter: 'azure-entra', name: 'Directory', config: { cloud: 'global', login_url: url, graph_url: url, auth: entraAuth, fetch_devices: true, fetch_sign_in_activity: false, fetch_licenses: false } },
    {
      adapter: 'crowdstrike', name: 'EDR',
      config: { base_url: url, auth: { auth_type: 'oauth2_client_credentials', client_id: replayCredentials.clientId, client_secret: replayCredentials.clientSecret }, fetch_vulnerabilities: withSoftware, fetch_software: withSoftware },
    },
    { adapter: 'microsoft-intune', name: 'MDM', config: { cloud: 'global', login_url: url, graph_url: url, auth: entraAuth, fetch_software: false } },
    { adapter: 'qualys', name: 'Vulnerability scanner', config: { base_url: url, auth: basic, fetch_vulnerabilities: false } },
    { adapter: 'servicenow', name: 'CMDB', config: { base_url: url, auth: basic, tables: ['cmdb_ci_computer'], fetch_users: true } },
  ];
}

/**
 * How to find the fleet's truth for a fetched record: the snapshot fields holding vendor ids, and vendor id → the
 * real device or person (record keys are Cartograph's own, so records are matched by the ids the replay emitted).
 */
export function vendorIdTruth(fleet: LabelledFleet): { idFields: string[]; truthById: Map<string, string> } {
  const streams = Object.values(replayStreams(fleet));
  const truthById = new Map<string, string>();
  for (const stream of streams) {
    stream.records.forEach((record, position) => {
      truthById.set(`${stream.adapter}:${stream.idOf(record, position)}`, fleet.truth.get(record.key) ?? fleet.userTruth.get(record.key)!);
    });
  }
  return { idFields: [...new Set(streams.map((stream) => stream.idField))], truthById };
}
