import { pseudoAdapters, type CatalogueAdapter } from '../../adapters/catalogue.js';
import { adapterForCompany } from '../../adapters/custom/customCatalogue.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../identity/callers.js';
import { notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

/** Adapter status numbers of spec §4. */
export const adapterStatus = { done: 1, warning: 2, error: 3, none: 4, builtin: 6 } as const;

/** May the caller use this adapter? Groups grant adapters by slug; `*` grants all. */
export function mayUseAdapter(caller: Caller, slug: string): boolean {
  return caller.adapters.includes('*') || caller.adapters.includes(slug);
}

/** An adapter's status from its connections: any error → 3, any warning → 2, any done → 1, none configured → 4. */
function statusFrom(connectionStatuses: number[]): number {
  if (!connectionStatuses.length) return adapterStatus.none;
  for (const status of [adapterStatus.error, adapterStatus.warning, adapterStatus.done]) if (connectionStatuses.includes(status)) return status;
  return adapterStatus.none;
}

/** Adapters as the reference API answers them: `{id, name, slug, description, groups, beta, status, categories}`. */
export function describeAdapter(context: AppContext, adapter: CatalogueAdapter, connectionStatuses: number[]) {
  const canFetch = context.adapters.engineFor(adapter) !== null;
  return {
    id: adapter.slug,
    name: adapter.name,
    slug: adapter.slug,
    description: adapter.description,
    groups: adapter.groups,
    categories: adapter.categories,
    beta: Boolean(adapter.beta),
    custom: Boolean(adapter.custom),
    // A custom adapter is done once defined (spec §3); its connections share the CSV file connection's form.
    status: adapter.custom ? adapterStatus.done : statusFrom(connectionStatuses),
    connection_schema: adapter.custom ? 'csvfile' : adapter.slug,
    vendor: adapter.vendor ?? null,
    docs_url: adapter.docs_url ?? null,
    engine: adapter.engine,
    can_fetch: canFetch,
    // What the adapter fetches; nothing while it cannot fetch, so the catalogue never promises data it cannot bring.
    entities: canFetch ? (adapter.entities ?? adapter.categories) : [],
    // An HTTP adapter is verified by its replay fixture (tests/conformance); a code engine by its own tests.
    verified_by_replay: canFetch && !adapter.custom && (adapter.engine !== 'http' || Boolean(adapter.hasReplayFixture)),
  };
}

async function connectionStatuses(context: AppContext, companyId: number): Promise<Map<string, number[]>> {
  const rows = await context.db.query<{ adapter: string; statuses: number[] }>(
    'select adapter, array_agg(status) as statuses from connections where company_id = $1 and enabled group by adapter',
    [companyId],
  );
  return new Map(rows.map((row) => [row.adapter, row.statuses]));
}

/** The adapter catalogue (reference API `/adapters/adapters`), filtered by the adapters the caller may use. */
export function registerAdapterRoutes(routes: RouteCatalogue, context: AppContext): void {
  routes.add({
    method: 'GET', url: '/adapters/adapters', name: 'adapters.list', summary: 'The adapter catalogue with statuses (built-in adapters first)',
    access: 'authenticated', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const needle = query.search?.toLowerCase();
      const matches = (name: string, slug: string) => !needle || name.toLowerCase().includes(needle) || slug.includes(needle);
      const statuses = await connectionStatuses(context, caller.companyId);
      const builtins = pseudoAdapters
        .filter((adapter) => matches(adapter.name, adapter.slug))
        .map((adapter) => ({ ...adapter, description: '', groups: [], beta: false, custom: false, status: adapterStatus.builtin, can_fetch: true, entities: adapter.categories, verified_by_replay: false }));
      const adapters = [...context.adapters.catalogue.values()]
        .filter((adapter) => mayUseAdapter(caller, adapter.slug) && matches(adapter.name, adapter.slug))
        .map((adapter) => describeAdapter(context, adapter, statuses.get(adapter.slug) ?? []));
      const all = [...builtins, ...adapters];
      const { limit, offset } = pageWindow(query);
      return paginated(request, query, all.length, all.slice(offset, offset + limit));
    },
  });
  routes.add({
    method: 'GET', url: '/adapters/adapters/:id', name: 'adapters.read', summary: 'One adapter with its status (a custom adapter of the company too)', access: 'authenticated',
    params: 'cartograph:api/adapter-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const adapter = await adapterForCompany(context.db, context.adapters, caller.companyId, (request.params as { id: string }).id);
      if (!adapter || !mayUseAdapter(caller, adapter.slug)) throw notFound();
      return describeAdapter(context, adapter, (await connectionStatuses(context, caller.companyId)).get(adapter.slug) ?? []);
    },
  });
}

