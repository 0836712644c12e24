import { FeedError, jsonFeedRows } from './feedText.js';

/** One entry of the CISA Known Exploited Vulnerabilities catalogue, as stored. */
export type KevRow = {
  cve_id: string; vendor_project: string | null; product: string | null; vulnerability_name: string | null; date_added: string | null;
  due_date: string | null; known_ransomware_use: string | null; required_action: string | null;
};

export const cvePattern = /^CVE-\d{4}-\d{4,}$/;
const datePattern = /^\d{4}-\d{2}-\d{2}/;

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** One catalogue entry as a row; an entry without a CVE id or with an unreadable date fails the import, naming it. */
function kevRow(value: unknown, position: number): KevRow {
  const entry = (value ?? {}) as Record<string, unknown>;
  const cve = text(entry.cveID)?.toUpperCase();
  if (!cve || !cvePattern.test(cve)) throw new FeedError(`Entry ${position} of the KEV catalogue has no valid cveID (${JSON.stringify(entry.cveID ?? null)}).`);
  for (const key of ['dateAdded', 'dueDate']) {
    if (entry[key] != null && !datePattern.test(String(entry[key]))) throw new FeedError(`Entry ${position} (${cve}) of the KEV catalogue has an unreadable ${key} (${JSON.stringify(entry[key])}).`);
  }
  return {
    cve_id: cve, vendor_project: text(entry.vendorProject), product: text(entry.product), vulnerability_name: text(entry.vulnerabilityName),
    date_added: text(entry.dateAdded)?.slice(0, 10) ?? null, due_date: text(entry.dueDate)?.slice(0, 10) ?? null,
    known_ransomware_use: text(entry.knownRansomwareCampaignUse), required_action: text(entry.requiredAction),
  };
}

/** Streams CISA's catalogue JSON (`{"vulnerabilities": [{"cveID": ...}]}`, schema known_exploited_vulnerabilities v1): one row per entry. */
export function kevRows(chunks: AsyncIterable<string>): AsyncGenerator<KevRow> {
  return jsonFeedRows(chunks, 1024 * 1024, { feed: 'The KEV catalogue', entry: 'entry', entries: 'vulnerabilities' }, kevRow);
}
