import type { CveConfiguration } from '../../core/software/cpe.js';
import { FeedError, jsonFeedRows } from './feedText.js';
import { cvePattern } from './kevFeed.js';

/** One CVE of NVD's CVE JSON 2.0, as stored: what enrichment and matching read of it. */
export type NvdRow = {
  cve_id: string; published: string | null; last_modified: string | null; status: string | null; description: string | null;
  cvss3_vector: string | null; cvss2_vector: string | null; cvss4_vector: string | null; cwes: string[]; configurations: CveConfiguration[];
};

type Metric = { type?: string; source?: string; cvssData?: { vectorString?: unknown } };

/** NVD's own (Primary) vector of a metric list, else the first one given. */
function vectorOf(metrics: unknown): string | null {
  if (!Array.isArray(metrics) || !metrics.length) return null;
  const list = metrics as Metric[];
  const chosen = list.find((metric) => metric.type === 'Primary') ?? list[0];
  const vector = chosen?.cvssData?.vectorString;
  return typeof vector === 'string' && vector.trim() ? vector.trim() : null;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The configurations with only what matching reads, each criterion checked to be a CPE 2.3 name. */
function configurationsOf(raw: unknown, position: number, cve: string): CveConfiguration[] {
  if (raw == null) return [];
  if (!Array.isArray(raw)) throw new FeedError(`Record ${position} (${cve}): configurations is not a list.`);
  return raw.map((configuration: Record<string, unknown>) => ({
    ...(configuration.operator === 'AND' && { operator: 'AND' }),
    ...(configuration.negate === true && { negate: true }),
    nodes: ((configuration.nodes as Record<string, unknown>[] | undefined) ?? []).map((node) => ({
      ...(node.operator === 'AND' && { operator: 'AND' }),
      ...(node.negate === true && { negate: true }),
      cpeMatch: ((node.cpeMatch as Record<string, unknown>[] | undefined) ?? []).map((match) => {
        if (typeof match.criteria !== 'string' || !match.criteria.startsWith('cpe:2.3:')) throw new FeedError(`Record ${position} (${cve}): a CPE match criterion is not a CPE 2.3 name (${JSON.stringify(match.criteria ?? null)}).`);
        const bounds = ['versionStartIncluding', 'versionStartExcluding', 'versionEndIncluding', 'versionEndExcluding'].filter((key) => typeof match[key] === 'string' && match[key]);
        return { criteria: match.criteria, vulnerable: match.vulnerable !== false, ...Object.fromEntries(bounds.map((key) => [key, match[key]])) };
      }),
    })),
  }));
}

/** One `vulnerabilities[]` element (`{cve: {...}}`) as a row; throws naming the record when it cannot be read. */
function nvdRow(value: unknown, position: number): NvdRow {
  const cve = ((value ?? {}) as { cve?: Record<string, unknown> }).cve;
  const id = text(cve?.id)?.toUpperCase();
  if (!cve || !id || !cvePattern.test(id)) throw new FeedError(`Record ${position} of the NVD file is not a CVE 2.0 record: it has no cve.id.`);
  const metrics = (cve.metrics ?? {}) as Record<string, unknown>;
  const descriptions = Array.isArray(cve.descriptions) ? (cve.descriptions as { lang?: string; value?: string }[]) : [];
  const weaknesses = Array.isArray(cve.weaknesses) ? (cve.weaknesses as { description?: { value?: string }[] }[]) : [];
  const cwes = [...new Set(weaknesses.flatMap((weakness) => (weakness.description ?? []).map((item) => item.value)).filter((cwe): cwe is string => typeof cwe === 'string' && /^CWE-\d+$/.test(cwe)))];
  return {
    cve_id: id, published: text(cve.published), last_modified: text(cve.lastModified), status: text(cve.vulnStatus),
    description: text((descriptions.find((item) => item.lang === 'en') ?? descriptions[0])?.value)?.slice(0, 8000) ?? null,
    cvss3_vector: vectorOf(metrics.cvssMetricV31) ?? vectorOf(metrics.cvssMetricV30), cvss2_vector: vectorOf(metrics.cvssMetricV2), cvss4_vector: vectorOf(metrics.cvssMetricV40),
    cwes, configurations: configurationsOf(cve.configurations, position, id),
  };
}

/**
 * Streams the CVEs of an NVD CVE JSON 2.0 document: a feed file (`nvdcve-2.0-2024.json[.gz]`, the modified feed) or
 * a page saved from the CVE API 2.0; both hold `vulnerabilities: [{cve: {...}}]`. A record that cannot be read, or
 * a document cut short, fails the import naming the record (and the line for JSON syntax).
 */
export function nvdRows(chunks: AsyncIterable<string>): AsyncGenerator<NvdRow> {
  // A CVE with thousands of criteria (a Linux kernel record) stays far below this bound.
  return jsonFeedRows(chunks, 32 * 1024 * 1024, { feed: 'The NVD file', entry: 'record', entries: 'CVE records' }, nvdRow);
}
