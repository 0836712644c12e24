// GMP answers (parsed by fast-xml-parser: attributes as `@name`, an element's text beside attributes as `#text`) turned
// into Cartograph records: host assets into devices, results into findings on those devices.
import type { FetchedRecord } from '../engine.js';

type Node = Record<string, unknown>;

/** The elements GMP repeats, read as lists even when an answer holds one. */
export const assetListElements = ['asset', 'identifier', 'detail'] as const;
export const resultListElements = ['result', 'ref', 'severity'] as const;
export const taskListElements = ['task'] as const;

const textOf = (value: unknown): string | undefined => {
  const text = value && typeof value === 'object' ? (value as Node)['#text'] : value;
  return typeof text === 'string' && text.trim() !== '' ? text.trim() : typeof text === 'number' ? String(text) : undefined;
};
const listOf = (value: unknown): Node[] => (Array.isArray(value) ? value : value ? [value] : []) as Node[];
const unique = (values: (string | undefined)[]) => [...new Set(values.filter((value): value is string => Boolean(value)))];
const numberOf = (value: unknown): number | undefined => {
  const text = textOf(value);
  const number = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(number) ? number : undefined;
};

/** The newest value of each identifier name (`ip`, `hostname`, `MAC`, `OS`), all of them for lists. */
function identifiers(asset: Node, name: string): string[] {
  const entries = listOf((asset.identifiers as Node | undefined)?.identifier).filter((entry) => textOf(entry.name) === name);
  return unique(entries.map((entry) => textOf(entry.value)));
}

/** A host detail (`best_os_cpe`, `best_os_txt`) by name. */
function detail(asset: Node, name: string): string | undefined {
  return textOf(listOf((asset.host as Node | undefined)?.detail).find((entry) => textOf(entry.name) === name)?.value);
}

/**
 * One host asset of `get_assets type="host"` as a device. Its raw record keeps the asset with `id` set to the
 * asset's UUID, which keys the device record and which results name as their host's `asset_id`.
 */
export function deviceRecord(asset: Node): FetchedRecord {
  const id = String(asset['@id'] ?? '');
  const hostnames = identifiers(asset, 'hostname');
  const name = textOf(asset.name);
  return {
    entity: 'device',
    fields: {
      DeviceId: id || undefined,
      Hostname: hostnames[0] ?? (name && !/^[\d.:a-f]+$/i.test(name) ? name : undefined),
      IpAddresses: unique([...identifiers(asset, 'ip'), ...(name && /^[\d.]+$|:/.test(name) ? [name] : [])]),
      MacAddresses: identifiers(asset, 'MAC').map((mac) => mac.toLowerCase()),
      'OS.FullOsString': detail(asset, 'best_os_txt') ?? detail(asset, 'best_os_cpe') ?? identifiers(asset, 'OS')[0],
      FirstSeen: textOf(asset.creation_time),
      LastSeen: textOf(asset.modification_time),
    },
    raw: { id, ...asset },
  };
}

/** The `key=value|key=value` tags of an NVT (summary, insight, solution, cvss_base_vector, ...). */
export function nvtTags(text: string | undefined): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of (text ?? '').split('|')) {
    const separator = part.indexOf('=');
    if (separator > 0) tags[part.slice(0, separator).trim()] = part.slice(separator + 1).trim();
  }
  return tags;
}

/** One result of `get_results` as a finding on its host, named by the host's asset UUID, IP and host name. */
export function findingRecord(result: Node): FetchedRecord {
  const host = (result.host ?? {}) as Node;
  const nvt = (result.nvt ?? {}) as Node;
  const refs = listOf((nvt.refs as Node | undefined)?.ref);
  const severities = listOf((nvt.severities as Node | undefined)?.severity);
  const vector = (prefix: string) => textOf(severities.find((entry) => String(entry['@type'] ?? '').startsWith(prefix))?.value);
  const tags = nvtTags(textOf(nvt.tags));
  const port = textOf(result.port);
  const portMatch = /^(\d+)\/(\w+)$/.exec(port ?? '');
  return {
    entity: 'vulnerability',
    fields: {
      DeviceId: String((host.asset as Node | undefined)?.['@asset_id'] ?? '') || undefined,
      IpAddresses: unique([textOf(host)]),
      Hostname: textOf(host.hostname),
      VendorVulnerabilityId: String(nvt['@oid'] ?? '') || undefined,
      CveId: unique(refs.filter((ref) => ref['@type'] === 'cve').map((ref) => String(ref['@id'] ?? ''))),
      Title: textOf(nvt.name) ?? textOf(result.name),
      Description: tags.summary ?? textOf(result.description),
      Solution: tags.solution,
      Severity: textOf(result.threat),
      CvssScore: numberOf(result.severity) ?? numberOf(nvt.cvss_base),
      CvssVector: vector('cvss_base_v3') ?? (tags.cvss_base_vector?.startsWith('CVSS:3') ? tags.cvss_base_vector : undefined),
      Cvss2Vector: vector('cvss_base_v2'),
      References: unique(refs.filter((ref) => ref['@type'] === 'url').map((ref) => String(ref['@id'] ?? ''))),
      Port: portMatch ? Number(portMatch[1]) : undefined,
      Protocol: portMatch ? portMatch[2] : undefined,
      Evidence: textOf(result.description),
      FirstSeen: textOf(result.creation_time),
      LastSeen: textOf(result.modification_time),
    },
    raw: { id: String(result['@id'] ?? ''), ...result },
  };
}

/** The total an answer's count element says after filtering (`<asset_count>12<filtered>12</filtered>...`). */
export function filteredCount(countElement: unknown): number {
  return numberOf((countElement as Node | undefined)?.filtered) ?? 0;
}

/** The UUID of each task's last finished report, from `get_tasks`. */
export function lastReportIds(tasks: unknown): string[] {
  return unique(listOf(tasks).map((task) => {
    const report = (task.last_report as Node | undefined)?.report as Node | undefined;
    return report?.['@id'] ? String(report['@id']) : undefined;
  }));
}
