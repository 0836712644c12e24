import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordActivity } from '../../activities/activityLog.js';
import type { AppContext } from '../../context.js';
import { checkFileLink, fileLinkOf, type FileLink } from '../../reports/fileLinks.js';
import type { ReportFormat } from '../../reports/reportDocuments.js';
import { detailError } from '../errors.js';
import type { RouteCatalogue } from '../routes.js';

export type RunFile = { filename: string; content_type: string; content: Buffer };

/** Answers a run's file as a download under its own name (file names are stems of titles: no quote can occur). */
export function sendRunFile(reply: FastifyReply, file: RunFile): FastifyReply {
  reply.header('content-type', file.content_type);
  reply.header('content-disposition', `attachment; filename="${file.filename}"`);
  return reply.send(file.content);
}

type LinkQuery = { company: number; expires: number; signature: string };

const downloadAction = 'report.download_signed';

/**
 * The download behind the link a scheduled report's e-mail carries for a file over the attachment limit. A mail
 * client or browser sends no bearer token, so the route is public and the link is the proof: the server's signature
 * over company, run, format and expiry (src/server/reports/fileLinks.ts). A link that is not the server's answers 404
 * and records nothing (its company cannot be trusted); an expired one, or one whose run was deleted, 410 and a failed
 * activity of that company; a download, a successful one.
 */
export function registerReportFileLinkRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;

  /** One activity per link presented with a valid signature, by "(download link)" since no user signed in. */
  const recordLinkUse = async (request: FastifyRequest, link: FileLink, statusCode: number) => {
    try {
      await recordActivity(db, {
        companyId: link.companyId, userId: null, username: '(download link)', action: downloadAction,
        targetType: 'reports/runs', targetId: String(link.runId), sourceIp: request.ip, statusCode,
      });
    } catch (error) {
      // The company may be gone with its runs: the answer still goes out, the log says why nothing was recorded.
      request.log.error({ err: error }, 'could not record activity');
    }
  };

  routes.add({
    method: 'GET', url: '/reports/runs/:id/files/:format/signed', name: downloadAction,
    summary: 'Download a file of a run through the signed, expiring link its scheduled e-mail carries (no token: the link is the proof)',
    access: 'public', params: 'cartograph:api/report-file-params', query: 'cartograph:api/report-file-link-query',
    handler: async (request, reply) => {
      const params = request.params as { id: number; format: ReportFormat };
      const query = request.query as LinkQuery;
      const link = fileLinkOf(params.id, params.format, query);
      const check = checkFileLink(context.keys.reportLinksKey, link, query.signature);
      if (check === 'forged') {
        throw detailError(404, 'This download link is not valid: open the whole link from the e-mail, or download the file in the console under Reports.', 'link_not_valid');
      }
      if (check === 'expired') {
        await recordLinkUse(request, link, 410);
        throw detailError(410, `This download link expired at ${link.expiresAt.toISOString()}. Download the file in the console under Reports while its run is kept.`, 'link_expired');
      }
      const [file] = await db.query<RunFile>(
        `select report_files.filename, report_files.content_type, report_files.content
           from report_files join report_runs on report_runs.id = report_files.run_id
          where report_runs.id = $1 and report_runs.company_id = $2 and report_files.format = $3`,
        [link.runId, link.companyId, link.format],
      );
      if (!file) {
        await recordLinkUse(request, link, 410);
        throw detailError(410, 'The report run of this download link has been deleted (runs are kept for the days the report settings say), so its file is gone.', 'link_run_deleted');
      }
      await recordLinkUse(request, link, 200);
      return sendRunFile(reply, file);
    },
  });
}
