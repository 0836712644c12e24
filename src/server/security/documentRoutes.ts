import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import type { Caller } from '../identity/callers.js';
import { fieldError, notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../http/pagination.js';
import { callerOf, type Access, type RouteCatalogue } from '../http/routes.js';
import { requestRescore } from './rescore.js';
import { containsPattern } from '../db/likePatterns.js';

// The list, read, create, change and delete endpoints of asset profiles and security policies: company documents
// in `resources`, each checked (its condition, its references) before it is stored, and answered with what the
// latest scored snapshot says of it.

type Document = Record<string, unknown> & { name: string };
export type DocumentRow = { id: number; document: Document; created_at: Date; updated_at: Date };

export type DocumentKind = {
  kind: string;
  path: string;
  /** Route names' prefix (`asset_profile`) and what a message calls one (`asset profile`). */
  name: string;
  label: string;
  /** One of them, with its article (`an asset profile`). */
  one: string;
  permissions: Record<'view' | 'add' | 'change' | 'delete', Access>;
  search: string[];
  ordering: Record<string, string>;
  defaults: Record<string, unknown>;
  /** Refuses a document that may not be stored (field errors). */
  check: (db: Queryable, caller: Caller, document: Document, id: number | null) => Promise<void>;
  /** Refuses a deletion (another document depends on it). */
  checkDelete?: (db: Queryable, caller: Caller, row: DocumentRow) => Promise<void>;
  /** Whether a stored change (before and after; null when created or deleted) changes the scores of a snapshot. */
  changesScores: (before: Document | null, after: Document | null) => boolean;
  /** The rows as answered, with what the latest scored snapshot says of them. */
  describe: (db: Queryable, caller: Caller, rows: DocumentRow[]) => Promise<Record<string, unknown>[]>;
};

export function registerDocumentRoutes(routes: RouteCatalogue, context: AppContext, spec: DocumentKind): void {
  const { db } = context;
  const select = 'select id, document, created_at, updated_at from resources';
  const load = async (caller: Caller, id: number): Promise<DocumentRow> => {
    const [row] = await db.query<DocumentRow>(`${select} where kind = $1 and company_id = $2 and id = $3`, [spec.kind, caller.companyId, id]);
    if (!row) throw notFound();
    return row;
  };
  const describeOne = async (caller: Caller, row: DocumentRow) => (await spec.describe(db, caller, [row]))[0];
  const checkName = async (caller: Caller, name: string, id: number | null) => {
    const taken = await db.query("select 1 from resources where kind = $1 and company_id = $2 and lower(document->>'name') = lower($3) and id <> coalesce($4::int, 0)", [spec.kind, caller.companyId, name, id]);
    if (taken.length) throw fieldError('name', `${spec.one[0].toUpperCase()}${spec.one.slice(1)} with this name already exists.`);
  };
  const store = async (caller: Caller, document: Document, id: number | null) => {
    await checkName(caller, document.name, id);
    await spec.check(db, caller, document, id);
  };
  // The latest snapshot is scored again in the background (rescore.ts), so a change shows without a discovery.
  const rescoreAfter = async (request: FastifyRequest, before: Document | null, after: Document | null) => {
    if (spec.changesScores(before, after)) await requestRescore(context.jobs.send, callerOf(request).companyId, (error) => request.log.error({ err: error }, 'could not ask for a rescoring'));
  };
  // A stored document names the user who last saved it (`owner_id`, never answered): the discovery that evaluates
  // its condition expands the saved queries that user may read, the ones its check was made with.
  const owned = (caller: Caller, document: Document) => JSON.stringify({ ...document, owner_id: caller.userId });
  const writable = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([key]) => key in spec.defaults || key === 'name')) as Document;

  routes.add({
    method: 'GET', url: spec.path, name: `${spec.name}.list`, summary: `List ${spec.label}s`, access: spec.permissions.view, query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const key = query.ordering?.replace(/^-/, '') ?? 'name';
      const order = spec.ordering[key];
      if (!order) throw fieldError('ordering', `Ordering by "${key}" is not supported.`);
      const filter = 'kind = $1 and company_id = $2 and ($3::text is null or exists (select 1 from unnest($4::text[]) field where document->>field ilike $3))';
      const params = [spec.kind, caller.companyId, query.search ? containsPattern(query.search) : null, spec.search];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
      const rows = await db.query<DocumentRow>(`${select} where ${filter} order by ${order} ${query.ordering?.startsWith('-') ? 'desc' : 'asc'}, id limit $5 offset $6`, [...params, limit, offset]);
      return paginated(request, query, count, await spec.describe(db, caller, rows));
    },
  });
  routes.add({
    method: 'POST', url: spec.path, name: `${spec.name}.create`, summary: `Create ${spec.one}`, access: spec.permissions.add, body: spec.kind, status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const document = { ...spec.defaults, ...writable(request.body as Record<string, unknown>) };
      await store(caller, document, null);
      const [row] = await db.query<DocumentRow>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id, document, created_at, updated_at', [spec.kind, caller.companyId, owned(caller, document)]);
      await rescoreAfter(request, null, document);
      return describeOne(caller, row);
    },
  });
  routes.add({
    method: 'GET', url: `${spec.path}/:id`, name: `${spec.name}.read`, summary: `Read ${spec.one}`, access: spec.permissions.view, params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      return describeOne(caller, await load(caller, (request.params as { id: number }).id));
    },
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: `${spec.path}/:id`, name: `${spec.name}.${method === 'PUT' ? 'update' : 'partial_update'}`, summary: `Change ${spec.one} (the latest snapshot is scored again in the background)`,
      access: spec.permissions.change, params: 'cartograph:api/id-params', body: method === 'PUT' ? spec.kind : `${spec.kind}-patch`,
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await load(caller, (request.params as { id: number }).id);
        const changes = writable(request.body as Record<string, unknown>);
        // Fields the server keeps (a starter policy's origin) survive a whole replacement.
        const kept = Object.fromEntries(Object.entries(existing.document).filter(([key]) => !(key in spec.defaults) && key !== 'name' && key !== 'owner_id'));
        const document = { ...(method === 'PUT' ? spec.defaults : existing.document), ...kept, ...changes } as Document;
        await store(caller, document, existing.id);
        const [row] = await db.query<DocumentRow>('update resources set document = $2, updated_at = now() where id = $1 returning id, document, created_at, updated_at', [existing.id, owned(caller, document)]);
        await rescoreAfter(request, existing.document, document);
        return describeOne(caller, row);
      },
    });
  }
  routes.add({
    method: 'DELETE', url: `${spec.path}/:id`, name: `${spec.name}.delete`, summary: `Delete ${spec.one}`, access: spec.permissions.delete, params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id);
      await spec.checkDelete?.(db, caller, existing);
      await db.query('delete from resources where id = $1', [existing.id]);
      await rescoreAfter(request, existing.document, null);
    },
  });
}
