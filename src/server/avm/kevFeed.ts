import { JsonRecordStream, JsonShapeError } from '../adapters/files/jsonRecordStream.js';
import { FeedError } from './feedText.js';

/** One entry of the CISA Known Exploited Vulnerabilities catalogue, as stored. */
export type KevRow = {
  cve_id: string; vendor_project: string | null; product: string | null; vulnerability_name: string | null; date_added: string | null;
  due_date: string | null; known_ransomware_use: string | null; required_action: string | null;
};

export const cvePattern = /^CVE-\d{4}-\d{4,}$/;
const datePattern = /^\d{4}-\d{2}-\d{2}/;

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * Streams CISA's catalogue JSON (`{"vulnerabilities": [{"cveID": ...}]}`, schema known_exploited_vulnerabilities
 * v1): one row per entry. An entry without a CVE id or with an unreadable date fails the import, naming the entry.
 */
export async function* kevRows(chunks: AsyncIterable<string>): AsyncGenerator<KevRow> {
  const reader = new JsonRecordStream(['vulnerabilities'], 1024 * 1024);
  let position = 0;
  function* drain(): Generator<KevRow> {
    for (const value of reader.ready) {
      position += 1;
      const entry = (value ?? {}) as Record<string, unknown>;
      const cve = text(entry.cveID)?.toUpperCase();
      if (!cve || !cvePattern.test(cve)) throw new FeedError(`Entry ${position} of the KEV catalogue has no valid cveID (${JSON.stringify(entry.cveID ?? null)}).`);
      for (const key of ['dateAdded', 'dueDate']) {
        if (entry[key] != null && !datePattern.test(String(entry[key]))) throw new FeedError(`Entry ${position} (${cve}) of the KEV catalogue has an unreadable ${key} (${JSON.stringify(entry[key])}).`);
      }
      yield {
        cve_id: cve, vendor_project: text(entry.vendorProject), product: text(entry.product), vulnerability_name: text(entry.vulnerabilityName),
        date_added: text(entry.dateAdded)?.slice(0, 10) ?? null, due_date: text(entry.dueDate)?.slice(0, 10) ?? null,
        known_ransomware_use: text(entry.knownRansomwareCampaignUse), required_action: text(entry.requiredAction),
      };
    }
    reader.ready.length = 0;
  }
  try {
    for await (const chunk of chunks) {
      reader.push(chunk);
      yield* drain();
    }
    reader.end();
    yield* drain();
  } catch (error) {
    if (error instanceof JsonShapeError) throw new FeedError(`The KEV catalogue breaks after entry ${position}: ${error.message}`);
    throw error;
  }
  if (!position) throw new FeedError('The KEV catalogue holds no vulnerabilities.');
}
