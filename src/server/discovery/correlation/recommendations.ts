import type { Cluster, SourceRecord } from './correlate.js';
import { normalizeSerial, shortHostname, valuesOf } from './identifiers.js';

export type MergeRecommendation = { clusters: [number, number]; score: number; reasons: string[] };

/** The kinds of weak match, by the evidence beside the shared host name (the advanced configuration page's choices). */
export type WeakMatch = 'host_name' | 'host_name_os' | 'host_name_ip' | 'host_name_ip_os';

/** What the advanced configuration page decides about recommendations. */
export type RecommendationPolicy = {
  /** Host names shared by more assets than this are generic ("localhost", "ubuntu"): no recommendation. */
  genericNameLimit: number;
  matches: readonly WeakMatch[];
  minimumScore: number;
};

export const defaultRecommendationPolicy: RecommendationPolicy = { genericNameLimit: 10, matches: ['host_name', 'host_name_os', 'host_name_ip', 'host_name_ip_os'], minimumScore: 0.5 };

const matchOf = (sharedIp: boolean, sameOs: boolean): WeakMatch => (sharedIp ? (sameOs ? 'host_name_ip_os' : 'host_name_ip') : sameOs ? 'host_name_os' : 'host_name');

/** `agents`: each adapter's agent ids on the asset (`adapter` → ids), to tell two agents of one product apart. */
type Summary = { names: Set<string>; ips: Set<string>; os: Set<string>; serials: Set<string>; keys: Set<string>; agents: Map<string, Set<string>> };

function summarize(cluster: Cluster, byKey: Map<string, SourceRecord>): Summary {
  const summary: Summary = { names: new Set(), ips: new Set(), os: new Set(), serials: new Set(), keys: new Set(cluster.records), agents: new Map() };
  for (const key of cluster.records) {
    const { fields } = byKey.get(key)!;
    const name = shortHostname(fields.Hostname);
    if (name) summary.names.add(name);
    for (const ip of valuesOf(fields.IpAddresses)) summary.ips.add(String(ip));
    for (const os of valuesOf(fields['OS.Type'])) summary.os.add(String(os).toLowerCase());
    const serial = normalizeSerial(fields.SerialNumber);
    if (serial) summary.serials.add(serial);
    const { adapter } = byKey.get(key)!;
    for (const agent of valuesOf(fields.AgentId)) {
      if (!summary.agents.has(adapter)) summary.agents.set(adapter, new Set());
      summary.agents.get(adapter)!.add(String(agent).toLowerCase());
    }
  }
  return summary;
}

/** Two different agents of one adapter are two machines (or two images of one SBOM source), as the automatic merges hold. */
const differentAgents = (left: Summary, right: Summary) => [...left.agents].some(([adapter, ids]) => right.agents.has(adapter) && !overlaps(ids, right.agents.get(adapter)!));

const overlaps = (left: Set<string>, right: Set<string>) => [...left].some((value) => right.has(value));

/**
 * Weak evidence that two assets are one: the same short host name, more so with a shared IP address and the same
 * operating system. Never proposed when serial numbers or one adapter's agent ids contradict (container images of
 * one registry share the short name "registry"; their digests tell them apart), or an analyst already split the pair.
 */
export function deviceMergeRecommendations(
  clusters: Cluster[], records: SourceRecord[], splits: [string, string][] = [], policy: RecommendationPolicy = defaultRecommendationPolicy,
): MergeRecommendation[] {
  const wanted = new Set(policy.matches);
  const byKey = new Map(records.map((record) => [record.key, record]));
  const summaries = clusters.map((cluster) => summarize(cluster, byKey));
  const byName = new Map<string, number[]>();
  summaries.forEach((summary, position) => {
    for (const name of summary.names) byName.set(name, [...(byName.get(name) ?? []), position]);
  });
  const seen = new Set<string>();
  const recommendations: MergeRecommendation[] = [];
  for (const [name, positions] of byName) {
    if (positions.length < 2 || positions.length > policy.genericNameLimit) continue;
    for (let first = 0; first < positions.length; first += 1) {
      for (const second of positions.slice(first + 1)) {
        const pair = `${positions[first]}:${second}`;
        const [left, right] = [summaries[positions[first]], summaries[second]];
        if (seen.has(pair)) continue;
        seen.add(pair);
        if (left.serials.size && right.serials.size && !overlaps(left.serials, right.serials)) continue;
        if (differentAgents(left, right)) continue;
        if (splits.some(([one, other]) => (left.keys.has(one) && right.keys.has(other)) || (left.keys.has(other) && right.keys.has(one)))) continue;
        const [sharedIp, sameOs] = [overlaps(left.ips, right.ips), overlaps(left.os, right.os)];
        const score = Number((0.5 + (sharedIp ? 0.25 : 0) + (sameOs ? 0.15 : 0)).toFixed(2));
        if (!wanted.has(matchOf(sharedIp, sameOs)) || score < policy.minimumScore) continue;
        const reasons = [`same host name "${name}"`, ...(sharedIp ? ['a shared IP address'] : []), ...(sameOs ? ['the same operating system'] : [])];
        recommendations.push({ clusters: [positions[first], second], score, reasons });
      }
    }
  }
  return recommendations.sort((left, right) => right.score - left.score);
}
