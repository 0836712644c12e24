import { vulnerableProducts } from '../../core/software/cpe.js';
import type { Database, Queryable } from '../db/database.js';
import { cpeRows, type CpeRow } from './cpeFeed.js';
import { epssRows, type EpssRow } from './epssFeed.js';
import { FeedError, feedText } from './feedText.js';
import { kevRows, type KevRow } from './kevFeed.js';
import { nvdRows, type NvdRow } from './nvdFeed.js';
import { lifecycleRows, type LifecycleRow } from '../lifecycle/lifecycleFeed.js';
import { osvRecordsOfBytes, osvRecordsOfFolder } from './osvArchive.js';
import { osvRow, type OsvRow } from './osvFeed.js';

// Imports of the public feeds: the AVM's (NVD, KEV, EPSS, CPE) and the OS lifecycle feed. An import streams its file into rows tagged with its own import id, a batch at a
// time (memory holds one batch, whatever the file's size), while readers keep reading the committed imports; only
// when the whole file has been read is it committed, in one transaction, replacing what it supersedes. A feed that
// breaks anywhere is rolled away and the previous import stays in use. Importing the same file twice gives the
// same records: imports are idempotent.

export type FeedSlug = 'nvd-cve' | 'cisa-kev' | 'first-epss' | 'nvd-cpe' | 'endoflife-date' | 'osv';
export const feedSlugs: FeedSlug[] = ['nvd-cve', 'cisa-kev', 'first-epss', 'nvd-cpe', 'endoflife-date', 'osv'];

/** What an import reads: a file's bytes (an upload, a file of an import folder, a download), or a folder (OSV only). */
export type FeedInput = AsyncIterable<Buffer | string> | { folder: string };

/** Only committed imports are read: `import_id in (…)` on every feed table. */
export const committedImports = (slug: FeedSlug) => `(select id from avm_imports where slug = '${slug}' and status = 'committed')`;

/** Another import of the same feed is running in this server. */
export class FeedBusyError extends Error {}

const rowsPerBatch = 500;
const progressEvery = 20_000;

type FeedDefinition<Row> = {
  /** The feed's rows; `source` (the file's name, path or address) names what the file alone may not (an endoflife.date API v0 file's product). */
  rows: (input: FeedInput, source: string) => AsyncGenerator<Row>;
  write: (db: Queryable, importId: number, rows: Row[]) => Promise<unknown>;
  /** Makes the staged import the one in use: a catalogue replaces the previous one, NVD files replace their CVEs. */
  commit: (db: Queryable, importId: number) => Promise<unknown>;
  count: string;
};

const feedTables = ['avm_kev', 'avm_epss', 'avm_nvd_cves', 'avm_nvd_products', 'avm_cpe_products', 'lifecycle_cycles', 'avm_osv_advisories', 'avm_osv_packages'];

/** The rows of a feed read from text: a file's bytes decoded (gzip undone); only OSV imports a folder. */
const fromText = <Row>(rows: (text: AsyncIterable<string>, source: string) => AsyncGenerator<Row>) => (input: FeedInput, source: string): AsyncGenerator<Row> => {
  if ('folder' in input) throw new FeedError('Only the OSV feed imports a folder: name one file of this feed.');
  return rows(feedText(input), source);
};

async function* osvRows(input: FeedInput, source: string): AsyncGenerator<OsvRow> {
  for await (const record of 'folder' in input ? osvRecordsOfFolder(input.folder) : osvRecordsOfBytes(input, source)) yield osvRow(record.value, record.where);
}

/** Deletes the imports a condition on `avm_imports` selects, with their rows in every feed table. */
async function deleteImports(db: Queryable, condition: string, params: unknown[]): Promise<void> {
  const ids = (await db.query<{ id: number }>(`select id from avm_imports where ${condition}`, params)).map((row) => row.id);
  if (!ids.length) return;
  for (const table of feedTables) await db.query(`delete from ${table} where import_id = any($1::int[])`, [ids]);
  await db.query('delete from avm_imports where id = any($1::int[])', [ids]);
}

const replaceCatalogue = (slug: FeedSlug) => (db: Queryable, importId: number) => deleteImports(db, "slug = $1 and status = 'committed' and id <> $2", [slug, importId]);

type RowOf<Slug extends FeedSlug> = Slug extends 'nvd-cve' ? NvdRow : Slug extends 'cisa-kev' ? KevRow : Slug extends 'nvd-cpe' ? CpeRow : Slug extends 'endoflife-date' ? LifecycleRow : Slug extends 'osv' ? OsvRow : EpssRow;

const definitions: { [slug in FeedSlug]: FeedDefinition<RowOf<slug>> } = {
  osv: {
    rows: osvRows,
    write: async (db, importId, rows) => {
      // A record met twice in one import (an advisory in two ecosystems' archives) keeps its last copy.
      const byId = new Map(rows.map((row) => [row.osv_id, row]));
      const ids = [...byId.keys()];
      await db.query('delete from avm_osv_packages where import_id = $1 and osv_id = any($2::text[])', [importId, ids]);
      await db.query(
        `insert into avm_osv_advisories (import_id, osv_id, modified, published, withdrawn, summary, aliases, cves)
         select $1, osv_id, modified, published, withdrawn, summary, aliases, cves
           from json_to_recordset($2::json) as row(osv_id text, modified text, published text, withdrawn text, summary text, aliases text[], cves text[])
         on conflict (import_id, osv_id) do update set modified = excluded.modified, published = excluded.published, withdrawn = excluded.withdrawn,
           summary = excluded.summary, aliases = excluded.aliases, cves = excluded.cves`,
        [importId, JSON.stringify([...byId.values()].map(({ packages: _packages, ...row }) => ({ ...row, aliases: pgArray(row.aliases), cves: pgArray(row.cves) })))],
      );
      const packages = [...byId.values()].flatMap((row) => row.packages.map((affected) => ({ osv_id: row.osv_id, ...affected, versions: pgArray(affected.versions) })));
      if (packages.length) {
        await db.query(
          `insert into avm_osv_packages (import_id, osv_id, ecosystem, name, ranges, versions)
           select $1, osv_id, ecosystem, name, ranges, versions from json_to_recordset($2::json) as row(osv_id text, ecosystem text, name text, ranges jsonb, versions text[])`,
          [importId, JSON.stringify(packages)],
        );
      }
    },
    commit: async (db, importId) => {
      // The advisories this import holds replace the same advisories of earlier imports; the others stay (each ecosystem's archive adds its own).
      const earlier = `import_id in ${committedImports('osv')} and osv_id in (select osv_id from avm_osv_advisories where import_id = $1)`;
      await db.query(`delete from avm_osv_packages where ${earlier}`, [importId]);
      await db.query(`delete from avm_osv_advisories where ${earlier}`, [importId]);
      await deleteImports(db, "slug = 'osv' and status = 'committed' and id <> $1 and not exists (select 1 from avm_osv_advisories a where a.import_id = avm_imports.id)", [importId]);
    },
    count: `select count(*)::int as count from avm_osv_advisories where import_id in ${committedImports('osv')}`,
  },
  'nvd-cpe': {
    rows: fromText(cpeRows),
    write: (db, importId, rows) => {
      // One row per product in a batch (a dictionary page names a product once per version), its first title kept.
      const byProduct = new Map<string, CpeRow>();
      for (const row of rows) {
        const key = `${row.vendor}:${row.product}`;
        const known = byProduct.get(key);
        if (!known || (!known.title && row.title)) byProduct.set(key, row);
      }
      return db.query(
        `insert into avm_cpe_products (import_id, vendor, product, title)
         select $1, vendor, product, title from json_to_recordset($2::json) as row(vendor text, product text, title text)
         on conflict (import_id, vendor, product) do update set title = coalesce(avm_cpe_products.title, excluded.title)`,
        [importId, JSON.stringify([...byProduct.values()])],
      );
    },
    commit: async (db, importId) => {
      // The products this import names replace the same products of earlier imports; the others stay (pages add up).
      await db.query(
        `delete from avm_cpe_products p where p.import_id in ${committedImports('nvd-cpe')}
           and exists (select 1 from avm_cpe_products n where n.import_id = $1 and n.vendor = p.vendor and n.product = p.product)`,
        [importId],
      );
      await deleteImports(db, "slug = 'nvd-cpe' and status = 'committed' and id <> $1 and not exists (select 1 from avm_cpe_products c where c.import_id = avm_imports.id)", [importId]);
    },
    count: `select count(*)::int as count from avm_cpe_products where import_id in ${committedImports('nvd-cpe')}`,
  },
  'endoflife-date': {
    rows: fromText(lifecycleRows),
    write: (db, importId, rows) => db.query(
      // A cycle listed twice in one file keeps its last entry.
      `insert into lifecycle_cycles (import_id, product, cycle, label, codename, release_date, lts, eol_date, eol_ended, eoas_date, eoas_ended, eoes_date, eoes_ended, latest, latest_date)
       select $1, product, cycle, label, codename, release_date, lts, eol_date, eol_ended, eoas_date, eoas_ended, eoes_date, eoes_ended, latest, latest_date
         from json_to_recordset($2::json) as row(product text, cycle text, label text, codename text, release_date text, lts boolean, eol_date text, eol_ended boolean,
           eoas_date text, eoas_ended boolean, eoes_date text, eoes_ended boolean, latest text, latest_date text)
       on conflict (import_id, product, cycle) do update set label = excluded.label, codename = excluded.codename, release_date = excluded.release_date, lts = excluded.lts,
         eol_date = excluded.eol_date, eol_ended = excluded.eol_ended, eoas_date = excluded.eoas_date, eoas_ended = excluded.eoas_ended,
         eoes_date = excluded.eoes_date, eoes_ended = excluded.eoes_ended, latest = excluded.latest, latest_date = excluded.latest_date`,
      [importId, JSON.stringify([...new Map(rows.map((row) => [`${row.product}\u0000${row.cycle}`, row])).values()])],
    ),
    commit: async (db, importId) => {
      // The products this file holds replace the same products of earlier imports; the others stay (an API v0 file is one product).
      await db.query(
        `delete from lifecycle_cycles c where c.import_id in ${committedImports('endoflife-date')}
           and c.product in (select distinct product from lifecycle_cycles where import_id = $1)`,
        [importId],
      );
      await deleteImports(db, "slug = 'endoflife-date' and status = 'committed' and id <> $1 and not exists (select 1 from lifecycle_cycles c where c.import_id = avm_imports.id)", [importId]);
    },
    count: `select count(*)::int as count from lifecycle_cycles where import_id in ${committedImports('endoflife-date')}`,
  },
  'cisa-kev': {
    rows: fromText(kevRows),
    write: (db, importId, rows) => db.query(
      `insert into avm_kev (import_id, cve_id, vendor_project, product, vulnerability_name, date_added, due_date, known_ransomware_use, required_action)
       select $1, cve_id, vendor_project, product, vulnerability_name, date_added, due_date, known_ransomware_use, required_action
         from json_to_recordset($2::json) as row(cve_id text, vendor_project text, product text, vulnerability_name text, date_added text, due_date text, known_ransomware_use text, required_action text)
       on conflict (import_id, cve_id) do nothing`,
      [importId, JSON.stringify(rows)],
    ),
    commit: replaceCatalogue('cisa-kev'),
    count: `select count(*)::int as count from avm_kev where import_id in ${committedImports('cisa-kev')}`,
  },
  'first-epss': {
    rows: fromText(epssRows),
    write: (db, importId, rows) => db.query(
      `insert into avm_epss (import_id, cve_id, score, percentile, score_date)
       select $1, cve_id, score, percentile, score_date from json_to_recordset($2::json) as row(cve_id text, score float8, percentile float8, score_date text)
       on conflict (import_id, cve_id) do update set score = excluded.score, percentile = excluded.percentile`,
      [importId, JSON.stringify(rows)],
    ),
    commit: replaceCatalogue('first-epss'),
    count: `select count(*)::int as count from avm_epss where import_id in ${committedImports('first-epss')}`,
  },
  'nvd-cve': {
    rows: fromText(nvdRows),
    write: async (db, importId, rows) => {
      await db.query(
        `insert into avm_nvd_cves (import_id, cve_id, published, last_modified, status, description, cvss3_vector, cvss2_vector, cvss4_vector, cwes, configurations)
         select $1, cve_id, published, last_modified, status, description, cvss3_vector, cvss2_vector, cvss4_vector, cwes, configurations
           from json_to_recordset($2::json) as row(cve_id text, published text, last_modified text, status text, description text, cvss3_vector text, cvss2_vector text, cvss4_vector text, cwes text[], configurations jsonb)
         on conflict (import_id, cve_id) do update set published = excluded.published, last_modified = excluded.last_modified, status = excluded.status, description = excluded.description,
           cvss3_vector = excluded.cvss3_vector, cvss2_vector = excluded.cvss2_vector, cvss4_vector = excluded.cvss4_vector, cwes = excluded.cwes, configurations = excluded.configurations`,
        [importId, JSON.stringify(rows.map((row) => ({ ...row, cwes: `{${row.cwes.join(',')}}` })))],
      );
      const products = rows.flatMap((row) => vulnerableProducts(row.configurations).map((product) => ({ cve_id: row.cve_id, ...product })));
      // A CVE met twice in one file keeps its last record's products only.
      await db.query('delete from avm_nvd_products where import_id = $1 and cve_id = any($2::text[])', [importId, rows.map((row) => row.cve_id)]);
      if (products.length) {
        await db.query(
          'insert into avm_nvd_products (import_id, cve_id, vendor, product) select $1, cve_id, vendor, product from json_to_recordset($2::json) as row(cve_id text, vendor text, product text)',
          [importId, JSON.stringify(products)],
        );
      }
    },
    commit: async (db, importId) => {
      // The CVEs this file holds replace the same CVEs of earlier imports; the others stay (a yearly file adds its year).
      const earlier = `import_id in ${committedImports('nvd-cve')} and cve_id in (select cve_id from avm_nvd_cves where import_id = $1)`;
      await db.query(`delete from avm_nvd_products where ${earlier}`, [importId]);
      await db.query(`delete from avm_nvd_cves where ${earlier}`, [importId]);
      await deleteImports(db, "slug = 'nvd-cve' and status = 'committed' and id <> $1 and not exists (select 1 from avm_nvd_cves c where c.import_id = avm_imports.id)", [importId]);
    },
    count: `select count(*)::int as count from avm_nvd_cves where import_id in ${committedImports('nvd-cve')}`,
  },
};

/** A text list as a PostgreSQL array literal, each element quoted: json_to_recordset reads `text[]` columns from it. */
const pgArray = (values: string[]) => `{${values.map((value) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

const running = new Set<FeedSlug>();

export type ImportOutcome = { slug: FeedSlug; import_id: number; records: number; record_count: number };

/**
 * Imports one feed file (plain or gzipped bytes; for OSV a ZIP or a folder too) labelled `source` (the file's name, path or URL): staged, then
 * committed; on any failure the staged rows are deleted, the enrichment shows the error and the previous import
 * stays in use. Throws FeedError (the feed's fault), FeedBusyError, or what the database threw.
 */
export async function importFeed(db: Database, slug: FeedSlug, source: string, input: FeedInput): Promise<ImportOutcome> {
  if (running.has(slug)) throw new FeedBusyError(`An import of ${slug} is already running; wait for it to finish.`);
  running.add(slug);
  const definition = definitions[slug] as FeedDefinition<unknown>;
  let importId = 0;
  try {
    // Imports a stopped server left staged are of no use: nothing reads them.
    await deleteImports(db, "slug = $1 and status = 'staging'", [slug]);
    [{ id: importId }] = await db.query<{ id: number }>('insert into avm_imports (slug, source) values ($1, $2) returning id', [slug, source.slice(0, 500)]);
    await db.query("update enrichments set status = 'importing', status_detail = $2, last_attempt_at = now() where slug = $1", [slug, `Importing ${source}`]);
    let batch: unknown[] = [];
    let records = 0;
    for await (const row of definition.rows(input, source)) {
      batch.push(row);
      records += 1;
      if (batch.length >= rowsPerBatch) {
        await definition.write(db, importId, batch);
        batch = [];
      }
      if (records % progressEvery === 0) await db.query('update enrichments set status_detail = $2 where slug = $1', [slug, `Importing ${source}: ${records} records read`]);
    }
    if (batch.length) await definition.write(db, importId, batch);
    const recordCount = await db.transaction(async (connection) => {
      await definition.commit(connection, importId);
      await connection.query("update avm_imports set status = 'committed', record_count = $2, finished_at = now() where id = $1", [importId, records]);
      const [{ count }] = await connection.query<{ count: number }>(definition.count);
      await connection.query(
        "update enrichments set status = 'imported', status_detail = $2, record_count = $3, last_imported_at = now(), last_error = '' where slug = $1",
        [slug, `${source}: ${records} records read`, count],
      );
      return count;
    });
    return { slug, import_id: importId, records, record_count: recordCount };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const message = /[.!?]$/.test(text) ? text : `${text}.`;
    if (importId) await deleteImports(db, 'id = $1', [importId]).catch(() => {});
    const [previous] = await db.query<{ count: number }>("select count(*)::int as count from avm_imports where slug = $1 and status = 'committed'", [slug]).catch(() => [{ count: 0 }]);
    const detail = `The import of ${source} failed: ${message}${previous?.count ? ' The previous import stays in use.' : ''}`;
    await db.query("update enrichments set status = 'failed', status_detail = $2, last_error = $3 where slug = $1", [slug, detail.slice(0, 2000), message.slice(0, 2000)]).catch(() => {});
    if (error instanceof FeedError) throw new FeedError(detail);
    throw error;
  } finally {
    running.delete(slug);
  }
}
