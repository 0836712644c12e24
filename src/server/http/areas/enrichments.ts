import { createReadStream } from 'node:fs';
import { defaultFileEngineOptions, FileSourceError, localFolderOf, localPathOf } from '../../adapters/files/fileSource.js';
import type { ConnectionConfig } from '../../adapters/engine.js';
import { FeedBusyError, importFeed, type FeedInput, type FeedSlug } from '../../avm/feedImport.js';
import { downloadFeedsNow } from '../../avm/feedSchedule.js';
import { FeedError } from '../../avm/feedText.js';
import type { AppContext } from '../../context.js';
import { detailError, fieldError, requireProvider } from '../errors.js';
import { orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import type { FastifyRequest } from 'fastify';
import { containsPattern } from '../../db/likePatterns.js';

type EnrichmentRow = {
  slug: string; name: string; description: string; status: string; status_detail: string; record_count: number; last_imported_at: Date | null;
  last_attempt_at: Date | null; last_error: string;
};

const columns = 'slug, name, description, status, status_detail, record_count, last_imported_at, last_attempt_at, last_error';

/** The feeds are public data every company shares: only the provider company's administrators replace them. */
function checkProvider(request: FastifyRequest): void {
  requireProvider(callerOf(request), 'The feeds are shared by every company: only the provider company imports them.');
}

/** Runs an import and answers its enrichment row; a broken feed is a 400 naming where it broke. */
async function runImport(context: AppContext, slug: FeedSlug, source: string, input: FeedInput, field: string) {
  try {
    await importFeed(context.db, slug, source, input);
  } catch (error) {
    if (error instanceof FeedError) throw fieldError(field, error.message);
    if (error instanceof FeedBusyError) throw detailError(409, error.message, 'import_running');
    throw error;
  }
  const [row] = await context.db.query<EnrichmentRow>(`select ${columns} from enrichments where slug = $1`, [slug]);
  return row;
}

/**
 * `GET /avm/enrichments`: the public feeds Cartograph imports (its vulnerability management's NVD CVE, CISA KEV,
 * FIRST EPSS and NVD CPE dictionary, and the endoflife.date OS lifecycle feed), with when each was last imported,
 * how many records it holds, its status (`never_imported` until its first import) and the last error. Imports come as
 * an upload or as a file of the server's allowed import folders.
 */
export function registerEnrichmentRoutes(routes: RouteCatalogue, context: AppContext): void {
  routes.add({
    method: 'GET', url: '/avm/enrichments', name: 'enrichments.list', summary: 'List the vulnerability enrichment feeds and the OS lifecycle feed, with their imports',
    access: 'avm.view_vulnerabilityenrichment', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = '($1::text is null or name ilike $1 or slug ilike $1)';
      const params = [query.search ? containsPattern(query.search) : null];
      const [{ count }] = await context.db.query<{ count: number }>(`select count(*)::int as count from enrichments where ${filter}`, params);
      const order = orderByClause(query.ordering, { slug: 'slug', name: 'lower(name)', status: 'status', last_imported_at: 'last_imported_at', record_count: 'record_count' }, 'position');
      const rows = await context.db.query<EnrichmentRow>(`select ${columns} from enrichments where ${filter} order by ${order} limit $2 offset $3`, [...params, limit, offset]);
      return paginated(request, query, count, rows);
    },
  });

  routes.add({
    method: 'POST', url: '/avm/enrichments/:slug/upload', name: 'enrichments.upload', summary: 'Import a feed file sent as multipart/form-data (field "file"; JSON, CSV or either gzipped)',
    access: 'avm.change_vulnerabilityenrichment', params: 'cartograph:api/enrichment-params',
    handler: async (request) => {
      checkProvider(request);
      const { slug } = request.params as { slug: FeedSlug };
      if (!request.isMultipart()) throw detailError(415, 'Send the file as multipart/form-data, in a field named "file".');
      const part = await request.file();
      if (!part || part.fieldname !== 'file') throw fieldError('file', 'No file was sent: send it in a multipart field named "file".');
      const name = (part.filename || 'upload').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255);
      try {
        return await runImport(context, slug, `the uploaded file ${name}`, part.file, 'file');
      } finally {
        if (part.file.truncated) throw detailError(413, 'The file is larger than the upload limit: place it in an import folder of the server instead.');
        part.file.resume();
      }
    },
  });

  routes.add({
    method: 'POST', url: '/avm/enrichments/:slug/import', name: 'enrichments.import_path', summary: 'Import a feed file from an allowed import folder of the server (for OSV, a folder of records too)',
    access: 'avm.change_vulnerabilityenrichment', params: 'cartograph:api/enrichment-params', body: 'cartograph:api/enrichment-import-path',
    handler: async (request) => {
      checkProvider(request);
      const { slug } = request.params as { slug: FeedSlug };
      const { path: filePath } = request.body as { path: string };
      let path: string | null;
      try {
        // OSV advisories also come as a folder of records (an unpacked all.zip, a clone of an advisory database): one import for them all.
        const folder = slug === 'osv' ? await localFolderOf(filePath, defaultFileEngineOptions()) : null;
        if (folder) return await runImport(context, slug, folder, { folder }, 'path');
        path = await localPathOf({ source: { source_type: 'path', file_path: filePath } } as ConnectionConfig, defaultFileEngineOptions());
      } catch (error) {
        if (error instanceof FileSourceError) throw fieldError('path', error.message);
        throw error;
      }
      return runImport(context, slug, path!, createReadStream(path!, { highWaterMark: 256 * 1024 }), 'path');
    },
  });

  routes.add({
    method: 'POST', url: '/avm/enrichments/download', name: 'enrichments.download', summary: 'Download the feeds from their configured addresses now (the progress shows on each enrichment)',
    access: 'avm.change_vulnerabilityenrichment', status: 202,
    handler: async (request) => {
      checkProvider(request);
      return { queued: await downloadFeedsNow(context.jobs.send) };
    },
  });
}
