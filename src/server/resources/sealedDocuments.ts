import { noteChange } from '../activities/activityChanges.js';
import type { AppContext } from '../context.js';
import { keepUnchangedSecrets, maskedSecret, maskSecrets, openSecrets, sealSecrets, type SecretRule } from '../auth/secretFields.js';
import type { Caller } from '../identity/callers.js';
import { HttpError, notFound } from '../http/errors.js';
import { pageWindow, paginated, type ListQuery } from '../http/pagination.js';
import { callerOf, type Access, type RouteCatalogue } from '../http/routes.js';
import { containsPattern } from '../db/likePatterns.js';

type Document = Record<string, unknown>;
// Answered by the server, ignored when a client sends them back.
// `owner_id` is the user who last saved the document: what runs it without a caller (a scheduled action) expands the
// saved queries that user may read, the ones its check was made with (savedQueryStore.ts).
const serverOwned = new Set(['id', 'created_at', 'updated_at', 'last_run', 'owner_id']);
type Row = { id: number; document: Document; created_at: Date; updated_at: Date };

/**
 * A tenant's documents that hold secrets (actions' parameters, SSH credentials), served like the generic resources
 * but with their secrets sealed at rest, answered masked, and kept when an edit sends the mask back.
 */
export type SealedDocuments = {
  kind: string;
  path: string;
  /** Operation ids: `<name>.list`, `<name>.create`, ... */
  name: string;
  title: string;
  permissions: Record<'view' | 'add' | 'change' | 'delete', Access>;
  search: string[];
  defaults: Document;
  /** The document's secrets and the fields that say where they are sent (a masked secret may not follow a change of those). */
  secretRule: (document: Document) => SecretRule;
  /** Checks beyond the schema (field errors), given the document with its stored secrets put back (opened). */
  check: (caller: Caller, document: Document, id: number | null) => Promise<void>;
  /** Extra fields of the answer (e.g. the latest run). */
  extra?: (rows: Row[]) => Promise<Map<number, Document>>;
};

/** `{password: ""}` → `{password: "**********"}` at any depth: what keepUnchangedSecrets replaces by the stored value. */
function blankSecretsAsMasked(document: Document, secretFields: Set<string>): Document {
  return Object.fromEntries(Object.entries(document).map(([field, value]) => {
    if (secretFields.has(field) && value === '') return [field, maskedSecret];
    if (value && typeof value === 'object' && !Array.isArray(value)) return [field, blankSecretsAsMasked(value as Document, secretFields)];
    return [field, value];
  }));
}

export function registerSealedDocuments(routes: RouteCatalogue, context: AppContext, resource: SealedDocuments): void {
  const { db, keys } = context;
  const { kind, path, name, title, permissions } = resource;
  const load = async (caller: Caller, id: number): Promise<Row> => {
    const [row] = await db.query<Row>('select id, document, created_at, updated_at from resources where kind = $1 and company_id = $2 and id = $3', [kind, caller.companyId, id]);
    if (!row) throw notFound();
    return row;
  };
  const describe = async (rows: Row[]) => {
    const extras = resource.extra ? await resource.extra(rows) : new Map<number, Document>();
    return rows.map((row) => {
      const { owner_id: _owner, ...document } = row.document;
      return { id: row.id, ...maskSecrets(document, resource.secretRule(document).secretFields), ...extras.get(row.id), created_at: row.created_at, updated_at: row.updated_at };
    });
  };
  const checkUniqueName = async (caller: Caller, document: Document, id: number | null) => {
    const taken = await db.query("select 1 from resources where kind = $1 and company_id = $2 and lower(document->>'name') = lower($3) and id <> coalesce($4::int, 0)", [kind, caller.companyId, document.name, id]);
    if (taken.length) throw new HttpError(400, { name: [`A ${title.toLowerCase()} with this name already exists.`] });
  };
  /** What is stored: defaults, the body, secrets sent back masked replaced by the stored ones, then sealed. */
  const prepare = async (caller: Caller, body: Document, stored: Row | null) => {
    const opened = stored ? openSecrets(keys.secretsKey, stored.document, resource.secretRule(stored.document).secretFields) : null;
    // An edit form sends what changed (and the required fields): what it leaves out keeps its stored value.
    const submitted = Object.fromEntries(Object.entries({ ...resource.defaults, ...opened, ...body }).filter(([key]) => !serverOwned.has(key)));
    // An edit's empty secret ("Leave empty to keep", or a default the validator filled in) keeps the stored one.
    const rule = resource.secretRule(submitted);
    const document = keepUnchangedSecrets(stored ? blankSecretsAsMasked(submitted, rule.secretFields) : submitted, opened, rule);
    await checkUniqueName(caller, document, stored?.id ?? null);
    await resource.check(caller, document, stored?.id ?? null);
    return sealSecrets(keys.secretsKey, { ...document, owner_id: caller.userId }, resource.secretRule(document).secretFields);
  };

  routes.add({
    method: 'GET', url: path, name: `${name}.list`, summary: `List ${title.toLowerCase()}s`, access: permissions.view, query: 'cartograph:api/list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const filter = 'kind = $1 and company_id = $2 and ($3::text is null or exists (select 1 from unnest($4::text[]) field where document->>field ilike $3))';
      const params = [kind, caller.companyId, query.search ? containsPattern(query.search) : null, resource.search];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from resources where ${filter}`, params);
      const rows = await db.query<Row>(`select id, document, created_at, updated_at from resources where ${filter} order by id limit $5 offset $6`, [...params, limit, offset]);
      return paginated(request, query, count, await describe(rows));
    },
  });
  routes.add({
    method: 'POST', url: path, name: `${name}.create`, summary: `Create a ${title.toLowerCase()}`, access: permissions.add, body: kind, status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const document = await prepare(caller, request.body as Document, null);
      const [row] = await db.query<Row>('insert into resources (kind, company_id, document) values ($1, $2, $3) returning id, document, created_at, updated_at', [kind, caller.companyId, JSON.stringify(document)]);
      const [created] = await describe([row]);
      noteChange(request, { targetId: row.id, before: null, after: created });
      return created;
    },
  });
  routes.add({
    method: 'GET', url: `${path}/:id`, name: `${name}.read`, summary: `Read a ${title.toLowerCase()}`, access: permissions.view, params: 'cartograph:api/id-params',
    handler: async (request) => (await describe([await load(callerOf(request), (request.params as { id: number }).id)]))[0],
  });
  routes.add({
    method: 'PUT', url: `${path}/:id`, name: `${name}.update`, summary: `Change a ${title.toLowerCase()}`, access: permissions.change, params: 'cartograph:api/id-params', body: kind,
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id);
      const document = await prepare(caller, request.body as Document, existing);
      const [row] = await db.query<Row>('update resources set document = $2, updated_at = now() where id = $1 returning id, document, created_at, updated_at', [existing.id, JSON.stringify(document)]);
      const [before, after] = await describe([existing, row]);
      noteChange(request, { before, after });
      return after;
    },
  });
  routes.add({
    method: 'DELETE', url: `${path}/:id`, name: `${name}.delete`, summary: `Delete a ${title.toLowerCase()}`, access: permissions.delete, params: 'cartograph:api/id-params',
    handler: async (request) => {
      const existing = await load(callerOf(request), (request.params as { id: number }).id);
      const [before] = await describe([existing]);
      await db.query('delete from resources where id = $1', [existing.id]);
      noteChange(request, { before, after: null });
    },
  });
}
