import type { AppContext } from '../../context.js';
import { checkedLogo, deleteReportLogo, loadReportLogo, saveReportLogo, type ReportLogo } from '../../reports/reportLogo.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

/** The logo as the console shows it: base64 for a `data:` preview (the console's CSP allows data: images). */
const describeLogo = (logo: ReportLogo | null) =>
  logo ? { image: logo.content.toString('base64'), content_type: logo.content_type, size: logo.size, updated_at: logo.updated_at } : { image: null, content_type: null, size: 0, updated_at: null };

/**
 * The company's logo for report title pages. One per company rather than per report: it is the company's, set once
 * and reused by every report and schedule, and a report being built (whose draft lives in the URL) can use it before
 * it is saved. Each report chooses whether to print it (`show_logo`).
 */
export function registerReportLogoRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  routes.add({
    method: 'GET', url: '/reports/logo', name: 'report_logo.read', summary: 'The company’s report logo (base64), or image null when none is uploaded', access: 'reports.view_report',
    handler: async (request) => describeLogo(await loadReportLogo(db, callerOf(request).companyId)),
  });
  routes.add({
    method: 'PUT', url: '/reports/logo', name: 'report_logo.update', summary: 'Upload the company’s report logo (PNG or JPEG, at most 256 kB)', access: 'reports.change_report', body: 'cartograph:api/report-logo',
    handler: async (request) => {
      const logo = checkedLogo((request.body as { image: string }).image);
      return describeLogo(await saveReportLogo(db, callerOf(request).companyId, logo));
    },
  });
  routes.add({
    method: 'DELETE', url: '/reports/logo', name: 'report_logo.delete', summary: 'Remove the company’s report logo', access: 'reports.change_report',
    handler: async (request) => {
      await deleteReportLogo(db, callerOf(request).companyId);
    },
  });
}
