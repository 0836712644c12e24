import type { CveConfiguration } from '../../core/software/cpe.js';
import type { Queryable } from '../db/database.js';
import { committedImports } from './feedImport.js';

// What the imported feeds say about the CVEs of a snapshot, read in batches by CVE id for the vulnerability stage.

export type NvdFacts = {
  description: string | null; published: string | null; last_modified: string | null; cwes: string[];
  cvss3_vector: string | null; cvss2_vector: string | null; cvss4_vector: string | null;
};
export type KevFacts = { vulnerability_name: string | null; date_added: string | null; due_date: string | null; known_ransomware_use: string | null; required_action: string | null };
export type EpssFacts = { score: number; percentile: number; score_date: string | null };
export type FeedFacts = { nvd?: NvdFacts; kev?: KevFacts; epss?: EpssFacts };

/** The feeds' facts per CVE and which feeds have been imported at all (a CVE absent from KEV is "not in KEV" only then). */
export type FeedFactIndex = { byCve: Map<string, FeedFacts>; kevImported: boolean };

const idsPerRead = 1000;

/** Which feeds a company's AVM settings enrich from. */
type FeedSwitches = { nvd: boolean; kev: boolean; epss: boolean };

/** Reads the facts of the given CVEs from the feeds a company's AVM settings turn on. */
async function readFeedFacts(db: Queryable, cves: Iterable<string>, feeds: FeedSwitches): Promise<FeedFactIndex> {
  const byCve = new Map<string, FeedFacts>();
  const facts = (cve: string) => byCve.get(cve) ?? byCve.set(cve, {}).get(cve)!;
  const ids = [...new Set(cves)];
  for (let start = 0; start < ids.length; start += idsPerRead) {
    const chunk = ids.slice(start, start + idsPerRead);
    const nvd = !feeds.nvd ? [] : await db.query<NvdFacts & { cve_id: string }>(
      `select cve_id, description, published, last_modified, cwes, cvss3_vector, cvss2_vector, cvss4_vector from avm_nvd_cves where cve_id = any($1::text[]) and import_id in ${committedImports('nvd-cve')}`,
      [chunk],
    );
    for (const { cve_id: cve, ...row } of nvd) facts(cve).nvd = row;
    const kev = !feeds.kev ? [] : await db.query<KevFacts & { cve_id: string }>(
      `select cve_id, vulnerability_name, date_added, due_date, known_ransomware_use, required_action from avm_kev where cve_id = any($1::text[]) and import_id in ${committedImports('cisa-kev')}`,
      [chunk],
    );
    for (const { cve_id: cve, ...row } of kev) facts(cve).kev = row;
    const epss = !feeds.epss ? [] : await db.query<EpssFacts & { cve_id: string }>(
      `select cve_id, score, percentile, score_date from avm_epss where cve_id = any($1::text[]) and import_id in ${committedImports('first-epss')}`,
      [chunk],
    );
    for (const { cve_id: cve, ...row } of epss) facts(cve).epss = row;
  }
  const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from avm_imports where id in ${committedImports('cisa-kev')}`);
  return { byCve, kevImported: feeds.kev && count > 0 };
}

/** Reads each CVE's facts once, for a stage that asks for the facts of some CVEs several times. */
export class FeedFactsReader {
  private readonly byCve = new Map<string, FeedFacts>();
  private kevImported: boolean | undefined;

  constructor(private readonly db: Queryable, private readonly feeds: FeedSwitches) {}

  /** The facts of the given CVEs (and of those asked for before). */
  async read(cves: Iterable<string>): Promise<FeedFactIndex> {
    const unread = [...new Set(cves)].filter((cve) => !this.byCve.has(cve));
    if (unread.length || this.kevImported === undefined) {
      const read = await readFeedFacts(this.db, unread, this.feeds);
      for (const cve of unread) this.byCve.set(cve, read.byCve.get(cve) ?? {});
      this.kevImported = read.kevImported;
    }
    return { byCve: this.byCve, kevImported: this.kevImported };
  }
}

/** The configurations of the given CVEs, for the software matcher. */
export async function readConfigurations(db: Queryable, cves: string[]): Promise<Map<string, CveConfiguration[]>> {
  const byCve = new Map<string, CveConfiguration[]>();
  for (let start = 0; start < cves.length; start += idsPerRead) {
    const rows = await db.query<{ cve_id: string; configurations: CveConfiguration[] }>(
      `select cve_id, configurations from avm_nvd_cves where cve_id = any($1::text[]) and import_id in ${committedImports('nvd-cve')}`,
      [cves.slice(start, start + idsPerRead)],
    );
    for (const row of rows) byCve.set(row.cve_id, row.configurations);
  }
  return byCve;
}
