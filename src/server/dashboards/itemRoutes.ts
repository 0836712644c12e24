import type { FastifyRequest } from 'fastify';
import type { AppContext, CoreContext } from '../context.js';
import { Invalid } from '../errors.js';
import { pageWindow, paginated } from '../http/pagination.js';
import { callerOf, type RouteCatalogue } from '../http/routes.js';
import type { Caller } from '../identity/callers.js';
import { computeChart, type ChartSettings } from './computeChart.js';
import { computeWidget, widgetSettingsErrors, widgetSettingsOf } from './computeWidget.js';
import { chartKind, describeRow, insertDocument, listItems, loadDashboard, loadItem, updateDocument, widgetKind, type Document, type StoredRow } from './dashboardStore.js';
import { checkQueryText, savedQueryOf } from './snapshotScope.js';
import { cachedResult, dataFingerprint } from './widgetCache.js';
import type { WidgetData } from './widgetData.js';

type ItemKind = {
  kind: string;
  path: string;
  name: 'charts' | 'widgets';
  title: string;
  access: { view: 'dashboards.view_chart' | 'dashboards.view_dashboard'; add: `dashboards.${string}`; change: `dashboards.${string}`; delete: `dashboards.${string}` };
  readOnly: string[];
  /** Field errors beyond the schema: the saved query and the query text must exist and parse. */
  check: (context: AppContext, caller: Caller, document: Document) => Promise<void>;
  /** Extra fields of the answer (names of what ids point at). */
  enrich: (context: AppContext, caller: Caller, row: StoredRow) => Promise<Document>;
  /** Computes the item for `reader`: the caller, or the dashboard's owner when warmed in the background. */
  compute: (context: CoreContext, reader: TileReader, document: Document) => Promise<WidgetData>;
};

/** The company a tile is computed in, and whose saved queries it may expand (savedQueryStore.ts). */
export type TileReader = { companyId: number; userId: number | null };

/** An item's result, from the cache when the data it reads has not changed since it was computed. */
export function cachedCompute(item: ItemKind, context: CoreContext, reader: TileReader, document: Document, fingerprint: string): Promise<WidgetData> {
  return cachedResult(context.db, reader, fingerprint, item.name === 'charts' ? 'chart' : 'widget', document, new Date(), () => item.compute(context, reader, document));
}

const contextFor = (context: CoreContext, reader: TileReader) => ({ db: context.db, companyId: reader.companyId, userId: reader.userId, now: new Date() });
const readerOfCaller = (context: CoreContext, caller: Caller) => ({ db: context.db, companyId: caller.companyId, userId: caller.userId });

/** Charts: score, number and table over a saved query or query text (reference API `/dashboards/charts`). */
export const chartItems: ItemKind = {
  kind: chartKind, path: '/dashboards/charts', name: 'charts', title: 'chart',
  access: { view: 'dashboards.view_chart', add: 'dashboards.add_chart', change: 'dashboards.change_chart', delete: 'dashboards.delete_chart' },
  readOnly: ['id', 'dashboard_name', 'group_by_query_name', 'created_at', 'updated_at'],
  check: async (context, caller, document) => {
    const savedId = document.group_by_query as number | null | undefined;
    if (savedId && !(await savedQueryOf(readerOfCaller(context, caller), savedId))) throw new Invalid({ group_by_query: [`Invalid pk "${savedId}" - object does not exist.`] });
    await checkQueryText(readerOfCaller(context, caller), String(document.query ?? ''), 'query');
  },
  enrich: async (context, caller, row) => {
    const dashboard = await loadDashboard(context.db, caller, Number(row.document.dashboard));
    const savedId = row.document.group_by_query as number | null | undefined;
    const saved = savedId ? await savedQueryOf(readerOfCaller(context, caller), savedId) : null;
    return { dashboard_name: dashboard.document.name, group_by_query_name: saved?.name ?? null };
  },
  compute: (context, reader, document) =>
    computeChart(contextFor(context, reader), {
      kind: 'number', inventory: 'device', query: '', group_by_query: null, group_by_data: '', fields: ['Hostname'], limit: 10, ...(document as Partial<ChartSettings>),
    } as ChartSettings),
};

/** Widgets of the catalogue, computed from the snapshots. */
export const widgetItems: ItemKind = {
  kind: widgetKind, path: '/dashboards/widgets', name: 'widgets', title: 'widget',
  access: { view: 'dashboards.view_dashboard', add: 'dashboards.change_dashboard', change: 'dashboards.change_dashboard', delete: 'dashboards.change_dashboard' },
  readOnly: ['id', 'created_at', 'updated_at'],
  check: async (context, caller, document) => {
    const settings = widgetSettingsOf(document);
    const errors = widgetSettingsErrors(settings);
    for (const id of settings.saved_queries) {
      if (!(await savedQueryOf(readerOfCaller(context, caller), id))) errors.saved_queries = [`Invalid pk "${id}" - object does not exist.`];
    }
    if (Object.keys(errors).length) throw new Invalid(errors);
    await checkQueryText(readerOfCaller(context, caller), settings.query, 'query');
  },
  enrich: async () => ({}),
  compute: (context, reader, document) => computeWidget(contextFor(context, reader), widgetSettingsOf(document)),
};

const writable = (item: ItemKind, body: Document): Document => Object.fromEntries(Object.entries(body).filter(([key]) => !item.readOnly.includes(key)));

/** list, create, read, change, delete and compute for charts or widgets; each checks the dashboard it names. */
export function registerItemRoutes(routes: RouteCatalogue, context: AppContext, item: ItemKind): void {
  const { db } = context;
  const answer = async (caller: Caller, row: StoredRow) => ({ ...describeRow(row), ...(await item.enrich(context, caller, row)) });
  // A dashboard the caller cannot see is answered as a missing one: ids of other companies reveal nothing.
  const checkDashboard = async (caller: Caller, dashboardId: number) => {
    try {
      await loadDashboard(db, caller, dashboardId);
    } catch {
      throw new Invalid({ dashboard: [`Invalid pk "${dashboardId}" - object does not exist.`] });
    }
  };
  const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;

  routes.add({
    method: 'GET', url: item.path, name: `${item.name}.list`, summary: `List ${item.name}, optionally of one dashboard`, access: item.access.view, query: 'cartograph:api/dashboard-item-list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as { page?: number; size?: number; search?: string; dashboard?: number };
      const { limit, offset } = pageWindow(query);
      const { count, rows } = await listItems(db, caller, item.kind, { ...query, limit, offset });
      return paginated(request, query, count, await Promise.all(rows.map((row) => answer(caller, row))));
    },
  });
  routes.add({
    method: 'POST', url: item.path, name: `${item.name}.create`, summary: `Create a ${item.title}`, access: item.access.add, body: item.kind, status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const document = writable(item, request.body as Document);
      await checkDashboard(caller, Number(document.dashboard));
      await item.check(context, caller, document);
      return answer(caller, await insertDocument(db, item.kind, caller.companyId, document));
    },
  });
  routes.add({
    method: 'GET', url: `${item.path}/:id`, name: `${item.name}.read`, summary: `Read a ${item.title}`, access: item.access.view, params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      return answer(caller, await loadItem(db, caller, item.kind, idOf(request)));
    },
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: `${item.path}/:id`, name: `${item.name}.${method === 'PUT' ? 'update' : 'partial_update'}`, summary: `Change a ${item.title}`, access: item.access.change,
      params: 'cartograph:api/id-params', body: method === 'PUT' ? item.kind : `${item.kind}-patch`,
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await loadItem(db, caller, item.kind, idOf(request));
        const changes = writable(item, request.body as Document);
        const document = method === 'PUT' ? changes : { ...existing.document, ...changes };
        if (document.dashboard !== existing.document.dashboard) await checkDashboard(caller, Number(document.dashboard));
        await item.check(context, caller, document);
        return answer(caller, await updateDocument(db, existing.id, document));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: `${item.path}/:id`, name: `${item.name}.delete`, summary: `Delete a ${item.title}`, access: item.access.delete, params: 'cartograph:api/id-params',
    handler: async (request) => {
      const existing = await loadItem(db, callerOf(request), item.kind, idOf(request));
      await db.query('delete from resources where id = $1', [existing.id]);
    },
  });
  routes.add({
    method: 'GET', url: `${item.path}/:id/data`, name: `${item.name}.data`, summary: `Compute a ${item.title} from the snapshots`, access: item.access.view, params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const row = await loadItem(db, caller, item.kind, idOf(request));
      return cachedCompute(item, context, caller, row.document, await dataFingerprint(db, caller.companyId));
    },
  });
  routes.add({
    method: 'POST', url: `${item.path}/preview`, name: `${item.name}.preview`, summary: `Compute an unsaved ${item.title} (for its form)`, access: item.access.view, body: item.kind,
    handler: async (request) => {
      const caller = callerOf(request);
      const document = writable(item, request.body as Document);
      await checkDashboard(caller, Number(document.dashboard));
      await item.check(context, caller, document);
      return item.compute(context, caller, document);
    },
  });
}
