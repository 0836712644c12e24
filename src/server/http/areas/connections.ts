import { outboundPolicyFor } from '../../outbound/policy.js';
import type { CatalogueAdapter } from '../../adapters/catalogue.js';
import { adapterForCompany, customAdaptersOf } from '../../adapters/custom/customCatalogue.js';
import { exportedFromOf } from '../../adapters/exportedFrom.js';
import { removeUpload } from '../../adapters/files/fileSource.js';
import { keepUnchangedSecrets, maskSecrets, openSecrets, sealSecrets } from '../../auth/secretFields.js';
import { testOnConnector, type RemoteTestResult } from '../../connectors/remoteTest.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../identity/callers.js';
import { detailError, fieldError, fieldErrorsFromAjv, HttpError, notFound } from '../errors.js';
import { orderByClause, pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { enforceFormRules, validatorFor } from '../validators.js';
import { mayUseAdapter } from './adapters.js';
import { containsPattern } from '../../db/likePatterns.js';
import { uploadKindsOf } from '../../adapters/files/uploads.js';

type Option = { name: string; typed_value: unknown };
type ConnectionBody = { adapter?: string; name?: string; description?: string; connector?: number; enabled?: boolean; option_connections?: Option[]; connection?: number };
type ConnectionRow = {
  id: number; adapter: string; name: string; description: string; connector_id: number; connector_name: string; enabled: boolean;
  config: Record<string, unknown>; status: number; status_detail: string; last_checked_at: Date | null; tested_at: Date | null; test_ok: boolean | null; test_detail: string;
  created_at: Date; updated_at: Date;
};

const connectionSelect = `select c.id, c.adapter, c.name, c.description, c.connector_id, k.name as connector_name, c.enabled, c.config, c.status,
  c.status_detail, c.last_checked_at, c.tested_at, c.test_ok, c.test_detail, c.created_at, c.updated_at from connections c join connectors k on k.id = c.connector_id`;

/** A connection as the reference API answers it, secrets masked. */
function describeConnection(adapter: CatalogueAdapter | undefined, row: ConnectionRow) {
  const masked = maskSecrets(row.config, adapter?.secretFields ?? new Set());
  return {
    id: row.id, adapter: row.adapter, adapter_name: adapter?.name ?? row.adapter, adapter_slug: row.adapter, name: row.name, description: row.description,
    status: row.status, status_detail: row.status_detail, enabled: row.enabled, connector: row.connector_id, connector_name: row.connector_name,
    last_checked_at: row.last_checked_at, tested_at: row.tested_at, test_ok: row.test_ok, test_detail: row.test_detail, takes_upload: uploadKindsOf(adapter).length > 0,
    created_at: row.created_at, updated_at: row.updated_at,
    option_connections: Object.entries(masked).map(([name, value]) => ({ name, typed_value: value, is_sensitive: Boolean(adapter?.secretFields.has(name)) })),
  };
}

/** Registers `/adapters/connections` and `/adapters/test`: connections with encrypted secrets and connectivity checks. */
export function registerConnectionRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;

  // A company's custom adapters are adapters too: its connections of them are found through the company.
  const adapterFor = (caller: Caller, slug: string) => adapterForCompany(db, context.adapters, caller.companyId, slug);
  const usableAdapter = async (caller: Caller, slug: string) => {
    const adapter = await adapterFor(caller, slug);
    if (!adapter || !mayUseAdapter(caller, slug)) throw fieldError('adapter', `Invalid pk "${slug}" - object does not exist.`);
    if (!context.adapters.engineFor(adapter)) throw fieldError('adapter', `${adapter.name} cannot fetch yet: Cartograph has no engine for it, so its connections cannot be saved.`);
    return adapter;
  };
  const load = async (caller: Caller, id: number): Promise<ConnectionRow> => {
    const [row] = await db.query<ConnectionRow>(`${connectionSelect} where c.id = $1 and c.company_id = $2`, [id, caller.companyId]);
    if (!row || !mayUseAdapter(caller, row.adapter)) throw notFound();
    return row;
  };
  /**
   * The plain config from the options, with kept secrets, validated by the adapter's own connection schema and its
   * form's rules. A secret sent masked is kept only while the config goes where the stored one went, from the same
   * connector (`movedElsewhere` when another would run it): else 400, type it again.
   */
  const configFrom = async (adapter: CatalogueAdapter, options: Option[], stored: Record<string, unknown> | null, movedElsewhere = false) => {
    const config = keepUnchangedSecrets(Object.fromEntries(options.map((option) => [option.name, option.typed_value])), stored, adapter, { movedElsewhere });
    const validate = validatorFor(adapter.connectionSchemaId);
    if (!validate(config)) throw new HttpError(400, fieldErrorsFromAjv(validate.errors ?? []));
    await enforceFormRules(adapter.connectionSchemaId, config);
    const exportedFrom = exportedFromOf(context.adapters.catalogue, config.exported_from);
    if (exportedFrom?.error) throw fieldError('exported_from', exportedFrom.error);
    return config;
  };
  // `connection` names the saved connection an unsaved test starts from; saving takes it from the URL.
  const refuseTestOnly = (body: ConnectionBody) => {
    if (body.connection !== undefined) throw fieldError('connection', 'Only a connection test (POST /adapters/test) names a saved connection in its body.');
  };
  const connectorFor = async (caller: Caller, requested: number | undefined): Promise<number> => {
    const [row] = await db.query<{ id: number }>('select id from connectors where company_id = $1 and ($2::int is null and is_default or id = $2)', [caller.companyId, requested ?? null]);
    if (!row) throw fieldError('connector', `Invalid pk "${requested}" - object does not exist.`);
    return row.id;
  };
  const checkName = async (caller: Caller, adapter: string, name: string, id: number | null) => {
    const taken = await db.query('select 1 from connections where company_id = $1 and adapter = $2 and lower(name) = lower($3) and id <> coalesce($4::int, 0)', [caller.companyId, adapter, name, id]);
    if (taken.length) throw fieldError('name', 'A connection with that name already exists for this adapter.');
  };
  /** Checks settings where the connection's fetches run: here, or on its remote connector (`connectorId`). */
  const runCheck = async (caller: Caller, adapter: CatalogueAdapter, config: Record<string, unknown>, connectorId: number, connectionId: number | null): Promise<RemoteTestResult> => {
    const engine = context.adapters.engineFor(adapter);
    if (!engine) return { ok: false, reason: 'invalid_config', detail: `${adapter.name} has no fetch engine yet.` };
    const [connector] = await db.query<{ is_default: boolean }>('select is_default from connectors where id = $1 and company_id = $2', [connectorId, caller.companyId]);
    if (connector && !connector.is_default) return testOnConnector(context, { companyId: caller.companyId, connectorId, adapter, config, connectionId });
    return engine.test({ adapter: adapter.slug, config, signal: AbortSignal.timeout(60_000), outbound: await outboundPolicyFor(db, context.config, caller.companyId) });
  };

  routes.add({
    method: 'GET', url: '/adapters/connections', name: 'connections.list', summary: 'List connections', access: 'adapters.view_connection', query: 'cartograph:api/connection-list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery & { adapter?: string };
      const { limit, offset } = pageWindow(query);
      const allowed = caller.adapters.includes('*') ? null : caller.adapters;
      const filter = `c.company_id = $1 and ($2::text is null or c.adapter = $2) and ($3::text is null or c.name ilike $3 or c.description ilike $3) and ($4::text[] is null or c.adapter = any($4))`;
      const params = [caller.companyId, query.adapter ?? null, query.search ? containsPattern(query.search) : null, allowed];
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from connections c where ${filter}`, params);
      const order = orderByClause(query.ordering, { id: 'c.id', name: 'lower(c.name)', adapter: 'c.adapter', status: 'c.status' }, 'c.id');
      const rows = await db.query<ConnectionRow>(`${connectionSelect} where ${filter} order by ${order} limit $5 offset $6`, [...params, limit, offset]);
      const customs = await customAdaptersOf(db, context.adapters, caller.companyId);
      return paginated(request, query, count, rows.map((row) => describeConnection(context.adapters.catalogue.get(row.adapter) ?? customs.get(row.adapter), row)));
    },
  });
  routes.add({
    method: 'POST', url: '/adapters/connections', name: 'connections.create', summary: 'Create a connection', access: 'adapters.add_connection',
    body: 'cartograph:api/connection-write', status: 201,
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as Required<Pick<ConnectionBody, 'adapter' | 'name' | 'option_connections'>> & ConnectionBody;
      refuseTestOnly(body);
      const adapter = await usableAdapter(caller, body.adapter);
      const config = await configFrom(adapter, body.option_connections, null);
      await checkName(caller, adapter.slug, body.name, null);
      const [row] = await db.query<{ id: number }>(
        'insert into connections (company_id, adapter, name, description, connector_id, enabled, config) values ($1, $2, $3, $4, $5, $6, $7) returning id',
        [caller.companyId, adapter.slug, body.name, body.description ?? '', await connectorFor(caller, body.connector), body.enabled ?? true, JSON.stringify(sealSecrets(context.keys.secretsKey, config, adapter.secretFields))],
      );
      return describeConnection(adapter, await load(caller, row.id));
    },
  });
  routes.add({
    method: 'GET', url: '/adapters/connections/:id', name: 'connections.read', summary: 'Read a connection (secrets masked)', access: 'adapters.view_connection', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const row = await load(caller, (request.params as { id: number }).id);
      return describeConnection(await adapterFor(caller, row.adapter), row);
    },
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    routes.add({
      method, url: '/adapters/connections/:id', name: method === 'PUT' ? 'connections.update' : 'connections.partial_update', summary: 'Change a connection; secrets sent as ********** are kept',
      access: 'adapters.change_connection', params: 'cartograph:api/id-params', body: method === 'PUT' ? 'cartograph:api/connection-write' : 'cartograph:api/connection-write-patch',
      handler: async (request) => {
        const caller = callerOf(request);
        const existing = await load(caller, (request.params as { id: number }).id);
        const body = request.body as ConnectionBody;
        refuseTestOnly(body);
        if (body.adapter !== undefined && body.adapter !== existing.adapter) throw fieldError('adapter', 'A connection cannot change its adapter.');
        const adapter = await usableAdapter(caller, existing.adapter);
        const stored = openSecrets(context.keys.secretsKey, existing.config, adapter.secretFields);
        const connectorId = body.connector === undefined ? existing.connector_id : await connectorFor(caller, body.connector);
        // Another connector receives the secrets with its fetches: moving there needs them typed again, options sent or not.
        const movedElsewhere = connectorId !== existing.connector_id;
        const config = body.option_connections ? await configFrom(adapter, body.option_connections, stored, movedElsewhere)
          : movedElsewhere ? keepUnchangedSecrets(maskSecrets(stored, adapter.secretFields), stored, adapter, { movedElsewhere }) : stored;
        const name = body.name ?? existing.name;
        await checkName(caller, adapter.slug, name, existing.id);
        await db.query(
          `update connections set name = $2, description = $3, connector_id = $4, enabled = $5, config = $6, updated_at = now() where id = $1`,
          [existing.id, name, body.description ?? existing.description, connectorId,
            body.enabled ?? existing.enabled, JSON.stringify(sealSecrets(context.keys.secretsKey, config, adapter.secretFields))],
        );
        return describeConnection(adapter, await load(caller, existing.id));
      },
    });
  }
  routes.add({
    method: 'DELETE', url: '/adapters/connections/:id', name: 'connections.delete', summary: 'Delete a connection', access: 'adapters.delete_connection', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const existing = await load(callerOf(request), (request.params as { id: number }).id);
      await db.query('delete from connections where id = $1', [existing.id]);
      // A file uploaded for this connection is read by nothing else.
      await removeUpload(context.config.dataDir, existing.config.source);
    },
  });
  routes.add({
    method: 'POST', url: '/adapters/test/:id', name: 'connections.test', summary: 'Check that a saved connection reaches its system with its credentials',
    access: 'adapters.change_connection', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const caller = callerOf(request);
      const existing = await load(caller, (request.params as { id: number }).id);
      const adapter = await adapterFor(caller, existing.adapter);
      if (!adapter) throw detailError(400, `The adapter ${existing.adapter} is no longer in the catalogue.`);
      const result = await runCheck(caller, adapter, openSecrets(context.keys.secretsKey, existing.config, adapter.secretFields), existing.connector_id, existing.id);
      // A test says whether the system answers; the status stays the last fetch's (migration 0166).
      await db.query('update connections set test_ok = $2, test_detail = $3, tested_at = now() where id = $1', [existing.id, result.ok, result.detail]);
      return { success: result.ok, ...(result.ok ? {} : { reason: result.reason }), detail: result.detail };
    },
  });
  /** The saved connection an edit is tested from (its config with secrets open); the caller must be able to change it. */
  const storedForTest = async (caller: Caller, adapter: CatalogueAdapter, id: number) => {
    if (!caller.permissions.has('adapters.change_connection')) throw detailError(403, 'You do not have permission to perform this action.', 'permission_denied');
    const existing = await load(caller, id).catch(() => {
      throw fieldError('connection', `Invalid pk "${id}" - object does not exist.`);
    });
    if (existing.adapter !== adapter.slug) throw fieldError('connection', `That connection belongs to the adapter ${existing.adapter}, not ${adapter.slug}.`);
    return { config: openSecrets(context.keys.secretsKey, existing.config, adapter.secretFields), connectorId: existing.connector_id };
  };
  routes.add({
    method: 'POST', url: '/adapters/test', name: 'connections.test_unsaved',
    summary: 'Check connection settings before saving them; with `connection`, the edits of that saved connection (secrets sent as ********** are its stored ones)',
    access: 'adapters.add_connection', body: 'cartograph:api/connection-write',
    handler: async (request) => {
      const caller = callerOf(request);
      const body = request.body as Required<Pick<ConnectionBody, 'adapter' | 'option_connections'>> & ConnectionBody;
      const adapter = await usableAdapter(caller, body.adapter);
      const stored = body.connection === undefined ? null : await storedForTest(caller, adapter, body.connection);
      // Settings not saved yet are tested where they would run: on the connector the form names, else the saved
      // connection's own (as saving the edit would keep it), else the default one.
      const connectorId = body.connector === undefined && stored ? stored.connectorId : await connectorFor(caller, body.connector);
      const config = await configFrom(adapter, body.option_connections, stored?.config ?? null, Boolean(stored) && connectorId !== stored?.connectorId);
      const result = await runCheck(caller, adapter, config, connectorId, body.connection ?? null);
      return { success: result.ok, ...(result.ok ? {} : { reason: result.reason }), detail: result.detail };
    },
  });
}
