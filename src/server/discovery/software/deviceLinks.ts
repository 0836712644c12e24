import type { Cluster, SourceRecord } from '../correlation/correlate.js';
import { fullyQualifiedName, normalizeMac, normalizeSerial, shortHostname, valuesOf } from '../correlation/identifiers.js';

// Software and vulnerability records are observations about a device: they carry that device's identifiers, and
// must land on the merged device of the snapshot. The surest link is the same connection's own device record (the
// vendor's device id, or its agent id); then identifiers that name one machine across sources.

/** How a record was linked to its device (kept for the statistics a discovery reports). */
export type LinkRule = 'device-id' | 'agent-id' | 'serial' | 'mac' | 'fqdn' | 'hostname' | 'ip';

type KeyIndex = Map<string, string | null>;

function addKey(index: KeyIndex, key: string | null, asset: string): void {
  if (!key) return;
  // A key two devices share names neither: it is dropped.
  index.set(key, index.has(key) && index.get(key) !== asset ? null : asset);
}

const firstText = (value: unknown): string | null => {
  const first = valuesOf(value)[0];
  return typeof first === 'string' || typeof first === 'number' ? String(first).trim() || null : null;
};

/** The merged devices of a snapshot, indexed by everything an observation may name them by. */
export class DeviceLinks {
  private readonly byRecordKey = new Map<string, string>();
  private readonly byConnectionAgent: KeyIndex = new Map();
  /** Each device's OS as normalization named it (the first record that names one): what gives a distribution package its ecosystem. */
  private readonly osOfAsset = new Map<string, { distribution: string; version: string | null }>();
  private readonly byRule = new Map<LinkRule, KeyIndex>([['agent-id', new Map()], ['serial', new Map()], ['mac', new Map()], ['fqdn', new Map()], ['hostname', new Map()], ['ip', new Map()]]);

  /** Indexes the device records of a snapshot, given the clusters they were merged into and each cluster's asset id. */
  constructor(records: SourceRecord[], clusters: Cluster[], assetIds: string[]) {
    const assetOfRecord = new Map<string, string>();
    clusters.forEach((cluster, index) => {
      for (const key of cluster.records) assetOfRecord.set(key, assetIds[index]);
    });
    for (const record of records) {
      const asset = assetOfRecord.get(record.key);
      if (!asset) continue;
      // A record's key is `<connection>:device:<vendor id>` (recordKeys.ts), with `#n` on duplicates.
      this.byRecordKey.set(record.key, asset);
      const distribution = firstText(record.fields['OS.Distribution']);
      if (distribution && !this.osOfAsset.has(asset)) this.osOfAsset.set(asset, { distribution, version: firstText(record.fields['OS.Version']) });
      const agent = firstText(record.fields.AgentId);
      if (agent) {
        addKey(this.byConnectionAgent, `${record.connectionId}|${agent.toLowerCase()}`, asset);
        addKey(this.byRule.get('agent-id')!, agent.toLowerCase(), asset);
      }
      addKey(this.byRule.get('serial')!, normalizeSerial(record.fields.SerialNumber), asset);
      for (const mac of valuesOf(record.fields.MacAddresses)) addKey(this.byRule.get('mac')!, normalizeMac(mac), asset);
      addKey(this.byRule.get('fqdn')!, fullyQualifiedName(record.fields.Hostname, record.fields.Domain), asset);
      addKey(this.byRule.get('hostname')!, shortHostname(record.fields.Hostname), asset);
      for (const ip of valuesOf(record.fields.IpAddresses)) addKey(this.byRule.get('ip')!, typeof ip === 'string' ? ip.trim() : null, asset);
    }
  }

  /** A device's OS distribution and version, or null when no record of it names one. */
  osOf(asset: string): { distribution: string; version: string | null } | null {
    return this.osOfAsset.get(asset) ?? null;
  }

  get size(): number {
    return this.byRecordKey.size;
  }

  /**
   * The device asset an observation of connection `connectionId` is about, and the rule that found it, or null.
   * Before: a software record `{DeviceId: ["4f2a"], Hostname: ["ws-1"]}` of connection 7; after: the asset holding
   * record `7:device:4f2a`.
   */
  link(connectionId: number, fields: Record<string, unknown>): { asset: string; rule: LinkRule } | null {
    const deviceId = firstText(fields.DeviceId);
    const byId = deviceId && this.byRecordKey.get(`${connectionId}:device:${deviceId}`);
    if (byId) return { asset: byId, rule: 'device-id' };
    const agent = firstText(fields.AgentId)?.toLowerCase();
    if (agent) {
      const sameConnection = this.byRecordKey.get(`${connectionId}:device:${firstText(fields.AgentId)}`) ?? this.byConnectionAgent.get(`${connectionId}|${agent}`);
      if (sameConnection) return { asset: sameConnection, rule: 'device-id' };
    }
    const candidates: [LinkRule, (string | null)[]][] = [
      ['agent-id', [agent ?? null]],
      ['serial', [normalizeSerial(fields.SerialNumber)]],
      ['mac', valuesOf(fields.MacAddresses).map(normalizeMac)],
      ['fqdn', [fullyQualifiedName(fields.Hostname, fields.Domain)]],
      ['hostname', [shortHostname(fields.Hostname)]],
      ['ip', valuesOf(fields.IpAddresses).map((ip) => (typeof ip === 'string' ? ip.trim() : null))],
    ];
    for (const [rule, keys] of candidates) {
      for (const key of keys) {
        const asset = key ? this.byRule.get(rule)!.get(key) : null;
        if (asset) return { asset, rule };
      }
    }
    return null;
  }
}
