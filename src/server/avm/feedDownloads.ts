import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Database, Queryable } from '../db/database.js';
import { loadSettingsDocument } from '../settings/settingsStore.js';
import type { OutboundPolicy } from '../outbound/guard.js';
import { guardedDispatcher, guardedFetch } from '../outbound/http.js';
import { importFeed, type FeedSlug } from './feedImport.js';

// Downloads of the public feeds (the AVM's and the OS lifecycle feed) from the addresses of the provider company's feed-downloads settings. Each address is
// asked with the validators its server gave last time (If-None-Match, If-Modified-Since), so an unchanged file costs
// one 304; a changed one is streamed into the same importer an upload uses (gzip files are read as they are, and a
// gzip Content-Encoding is undone by fetch). A failed download or import is written on the enrichment's status while
// the previous import stays in use; its validators are kept only after an import commits, so a failed file is
// downloaded whole again next time.

/** The provider company's feed-downloads document (`cartograph:settings/avm-feed-downloads`). */
export const feedDownloadsKind = 'cartograph:settings/avm-feed-downloads';

export type FeedDownloadsDocument = {
  enabled: boolean; cron: string; timezone: string; nvd_cve_urls: string[]; cisa_kev_url: string; first_epss_url: string; nvd_cpe_urls: string[];
  endoflife_date_urls: string[];
  /** OSV's archive per ecosystem; absent from documents saved before the OSV feed existed. */
  osv_urls?: string[];
};

export const defaultFeedDownloads: FeedDownloadsDocument = {
  enabled: false, cron: '30 3 * * *', timezone: 'UTC',
  nvd_cve_urls: ['https://nvd.nist.gov/feeds/json/cve/2.0/nvdcve-2.0-modified.json.gz'],
  cisa_kev_url: 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json',
  first_epss_url: 'https://epss.empiricalsecurity.com/epss_scores-current.csv.gz',
  nvd_cpe_urls: [],
  // Every product and cycle of endoflife.date in one answer (API v1), which replaces the bundled snapshot's products.
  endoflife_date_urls: ['https://endoflife.date/api/v1/products/full'],
  // None by default: an ecosystem's archive is tens of megabytes, worth it only for the ecosystems the estate runs.
  osv_urls: [],
};

/** The provider company (`is_constant`): the feeds are shared, so its settings are the ones downloads follow. */
export async function providerCompanyId(db: Queryable): Promise<number | null> {
  const [row] = await db.query<{ id: number }>('select id from companies where is_constant order by id limit 1');
  return row?.id ?? null;
}

export async function loadFeedDownloads(db: Queryable): Promise<FeedDownloadsDocument> {
  const company = await providerCompanyId(db);
  return company === null ? defaultFeedDownloads : loadSettingsDocument(db, company, feedDownloadsKind, defaultFeedDownloads);
}

/** The addresses to download per feed, in the order they are imported (the CPE dictionary before the CVEs it names). */
export function downloadPlan(settings: FeedDownloadsDocument): [FeedSlug, string[]][] {
  const plan: [FeedSlug, string[]][] = [
    ['nvd-cpe', settings.nvd_cpe_urls], ['nvd-cve', settings.nvd_cve_urls], ['cisa-kev', [settings.cisa_kev_url]], ['first-epss', [settings.first_epss_url]],
    ['endoflife-date', settings.endoflife_date_urls], ['osv', settings.osv_urls ?? []],
  ];
  return plan.map(([slug, urls]): [FeedSlug, string[]] => [slug, urls.map((url) => url.trim()).filter(Boolean)]).filter(([, urls]) => urls.length > 0);
}

/** How long a server may stay silent (before its headers, or between two chunks) before the download is given up. */
const silenceMilliseconds = 120_000;

export type DownloadOutcome = { slug: FeedSlug; url: string; outcome: 'imported' | 'not_modified' | 'failed'; detail: string };

/** The body's chunks, the download aborted when the server stays silent too long. */
async function* chunksOf(body: WebReadableStream<Uint8Array>, restart: () => void): AsyncGenerator<Buffer> {
  for await (const chunk of Readable.fromWeb(body)) {
    restart();
    yield chunk as Buffer;
  }
}

/** Downloads one address and imports it when it changed. Never throws: the outcome says what happened. */
async function downloadOne(db: Database, slug: FeedSlug, url: string, outbound: OutboundPolicy): Promise<DownloadOutcome> {
  const [known] = await db.query<{ etag: string | null; last_modified: string | null }>('select etag, last_modified from avm_feed_downloads where url = $1 and slug = $2', [url, slug]);
  const committed = await db.query("select 1 from avm_imports where slug = $1 and status = 'committed' limit 1", [slug]);
  // Validators only hold while an import of the feed is in use; otherwise the file is fetched whole.
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'Cartograph feed download' };
  if (known && committed.length) {
    if (known.etag) headers['if-none-match'] = known.etag;
    if (known.last_modified) headers['if-modified-since'] = known.last_modified;
  }
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(new Error(`the server sent nothing for ${silenceMilliseconds / 1000} s`)), silenceMilliseconds);
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`the server sent nothing for ${silenceMilliseconds / 1000} s`)), silenceMilliseconds);
  };
  const record = (outcome: string, validators?: { etag: string | null; lastModified: string | null }) => db.query(
    `insert into avm_feed_downloads (url, slug, etag, last_modified, checked_at, outcome) values ($1, $2, $3, $4, now(), $5)
     on conflict (url) do update set slug = excluded.slug, checked_at = now(), outcome = excluded.outcome,
       etag = case when $6 then excluded.etag else avm_feed_downloads.etag end, last_modified = case when $6 then excluded.last_modified else avm_feed_downloads.last_modified end`,
    [url, slug, validators?.etag ?? null, validators?.lastModified ?? null, outcome.slice(0, 2000), Boolean(validators)],
  );
  // The outbound guard checks each hop's address; a redirect never changes scheme.
  const dispatcher = guardedDispatcher({ verifySsl: true }, outbound);
  try {
    const response = await guardedFetch({ url, method: 'GET', headers }, dispatcher, { signal: controller.signal, maxRedirects: 5 });
    if (response.status === 304) {
      await record('not modified');
      return { slug, url, outcome: 'not_modified', detail: `${url} has not changed since the last download.` };
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
    }
    const validators = { etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
    const outcome = await importFeed(db, slug, url, chunksOf(response.body as WebReadableStream<Uint8Array>, restart));
    await record(`imported ${outcome.records} records`, validators);
    return { slug, url, outcome: 'imported', detail: `${url}: ${outcome.records} records read.` };
  } catch (error) {
    const reason = (error as Error).cause instanceof Error ? `${(error as Error).message} (${((error as Error).cause as Error).message})` : (error as Error).message;
    await record(`failed: ${reason}`).catch(() => undefined);
    return { slug, url, outcome: 'failed', detail: reason };
  } finally {
    clearTimeout(timer);
    // Destroyed, not closed: a body left unread (a failed import) must not hold the download open.
    await dispatcher.destroy().catch(() => undefined);
  }
}

/**
 * Downloads every configured address, feed after feed. A feed with a failed address ends with the failure on its
 * status (naming each address that failed), whatever the other addresses did, and keeps the imports in use.
 */
export async function downloadFeeds(db: Database, settings: FeedDownloadsDocument, outbound: OutboundPolicy): Promise<DownloadOutcome[]> {
  const outcomes: DownloadOutcome[] = [];
  for (const [slug, urls] of downloadPlan(settings)) {
    const mine: DownloadOutcome[] = [];
    for (const url of urls) mine.push(await downloadOne(db, slug, url, outbound));
    outcomes.push(...mine);
    const failed = mine.filter((outcome) => outcome.outcome === 'failed');
    if (!failed.length) {
      if (mine.every((outcome) => outcome.outcome === 'not_modified')) {
        // The import in use is the latest file: an earlier failure is over.
        await db.query(
          `update enrichments set status_detail = $2, last_attempt_at = now(), last_error = '',
             status = case when exists (select 1 from avm_imports where slug = $1 and status = 'committed') then 'imported' else status end
           where slug = $1 and status <> 'importing'`,
          [slug, `Checked ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: not changed since the last download.`],
        );
      }
      continue;
    }
    const [{ count }] = await db.query<{ count: number }>("select count(*)::int as count from avm_imports where slug = $1 and status = 'committed'", [slug]);
    const message = failed.map((outcome) => `${outcome.url}: ${outcome.detail.replace(/\.$/, '')}`).join('; ');
    const detail = `The download failed: ${message}.${count ? ' The previous import stays in use.' : ''}`;
    await db.query("update enrichments set status = 'failed', status_detail = $2, last_error = $3, last_attempt_at = now() where slug = $1", [slug, detail.slice(0, 2000), message.slice(0, 2000)]);
  }
  return outcomes;
}
