import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import {
  checkDashboardName, checkGroups, dashboardKind, deleteDashboard, describeRow, groupNames, insertDocument, listDashboards, loadDashboard,
  setDefaultDashboard, updateDocument, type Document, type StoredRow,
} from '../../dashboards/dashboardStore.js';
import { computeDashboard } from '../../dashboards/dashboardData.js';
import { ensureDefaultDashboards } from '../../dashboards/defaultDashboard.js';
import { chartItems, registerItemRoutes, widgetItems } from '../../dashboards/itemRoutes.js';
import type { Caller } from '../../identity/callers.js';
import { HttpError } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

const readOnly = ['id', 'hr_groups', 'created_by', 'created_at', 'updated_at'];
const writable = (body: Document): Document => Object.fromEntries(Object.entries(body).filter(([key]) => !readOnly.includes(key)));

/** Dashboards (reference API `/dashboards/dashboards`), their charts and widgets, and their computed data. */
export function registerDashboardRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const describe = async (row: StoredRow) => ({ ...describeRow(row), hr_groups: await groupNames(db, (row.document.groups as number[] | undefined) ?? []) });
  const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;
  const reload = (caller: Caller, id: number) => loadDashboard(db, caller, id);

  routes.add({
    method: 'GET', url: '/dashboards/dashboards', name: 'dashboards.list', summary: 'List the dashboards the caller may see, in menu order', access: 'dashboards.view_dashboard',
    query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      if (query.ordering) throw new HttpError(400, { ordering: ['Dashboards are listed in menu order.'] });
      // A company created after the last start gets its default dashboard the first time its dashboards are read.
      await ensureDefaultDashboards(db, caller.companyId);
      const { limit, offset } = pageWindow(query);
      const { count, rows } = await listDashboards(db, caller, { search: query.search, limit, offset });
      return paginated(request, query, count, await Promise.all(rows.map(describe)));
    },
  });
  routes.add({
    method: 'POST', url: '/dashboards/dashboards', name: 'dashboards.create', summary: 'Create a dashboard', access: 'dashboards.add_dashboard', body: dashboardKind, status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const document: Document = { ...writable(request.body as Document), created_by: caller.userId };
      await checkDashboardName(db, caller.companyId, String(document.name), null);
      await checkGroups(db, caller.companyId, document.groups as number[]);
      const row = await db.transaction(async (connection) => {
        const created = await insertDocument(connection, dashboardKind, caller.companyId, { ...document, is_default: false });
        if (document.is_default) await setDefaultDashboard(connection, caller.companyId, created.id);
        return created;
      });
      return describe(await reload(caller, row.id));
    },
  });
  routes.add({
    method: 'GET', url: '/dashboards/dashboards/:id', name: 'dashboards.read', summary: 'Read a dashboard', access: 'dashboards.view_dashboard', params: 'cartograph:api/id-params',
    handler: async (request) => describe(await reload(callerOf(request), idOf(request))),
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: '/dashboards/dashboards/:id', name: `dashboards.${method === 'PUT' ? 'update' : 'partial_update'}`,
      summary: 'Change a dashboard: rename, reorder, lay out, share, or make it the default', access: 'dashboards.change_dashboard', params: 'cartograph:api/id-params',
      body: method === 'PUT' ? dashboardKind : `${dashboardKind}-patch`,
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await reload(caller, idOf(request));
        const changes = writable(request.body as Document);
        const document = { ...(method === 'PUT' ? { created_by: existing.document.created_by ?? null } : existing.document), ...changes };
        await checkDashboardName(db, caller.companyId, String(document.name), existing.id);
        await checkGroups(db, caller.companyId, (document.groups as number[] | undefined) ?? []);
        // The default moves by naming another dashboard the default; clearing the flag alone would leave none.
        const wasDefault = existing.document.is_default === true;
        await db.transaction(async (connection) => {
          await updateDocument(connection, existing.id, { ...document, is_default: wasDefault });
          if (document.is_default && !wasDefault) await setDefaultDashboard(connection, caller.companyId, existing.id);
        });
        return describe(await reload(caller, existing.id));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: '/dashboards/dashboards/:id', name: 'dashboards.delete', summary: 'Delete a dashboard with its charts and widgets', access: 'dashboards.delete_dashboard',
    params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await reload(caller, idOf(request));
      if (existing.document.is_default === true) throw new HttpError(400, { detail: 'This is the default dashboard: make another dashboard the default before deleting it.' });
      await db.transaction((connection) => deleteDashboard(connection, caller.companyId, existing.id));
    },
  });
  routes.add({
    method: 'GET', url: '/dashboards/dashboards/:id/data', name: 'dashboards.data', summary: 'Compute every chart and widget of a dashboard from the snapshots', access: 'dashboards.view_dashboard',
    params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const dashboard = await reload(caller, idOf(request));
      return computeDashboard(context, caller, dashboard);
    },
  });
  registerItemRoutes(routes, context, chartItems);
  registerItemRoutes(routes, context, widgetItems);
}
