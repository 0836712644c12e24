import { logConnectorEvent } from '../../connectors/connectorEvents.js';
import { issueConnectorToken } from '../../connectors/connectorTokens.js';
import { jobQueuedFor } from '../../connectors/jobSignals.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/database.js';
import { detailError, fieldError, notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { registerConnectorApiRoutes } from './connectorApi.js';
import { containsPattern } from '../../db/likePatterns.js';

type ConnectorRow = {
  id: number; name: string; description: string; is_default: boolean; connection_count: number; created_at: Date;
  token_hash: string | null; token_issued_at: Date | null; revoked_at: Date | null; version: string; host: string;
  last_seen_at: Date | null; last_error: string; last_error_at: Date | null; error_count: number; pending_jobs: number;
};
type ConnectorBody = { name: string; description?: string };

const connectorSelect = `select k.id, k.name, k.description, k.is_default, k.created_at, k.token_hash, k.token_issued_at, k.revoked_at,
  k.version, k.host, k.last_seen_at, k.last_error, k.last_error_at, k.error_count,
  (select count(*)::int from connections c where c.connector_id = k.id) as connection_count,
  (select count(*)::int from connector_jobs j where j.connector_id = k.id) as pending_jobs from connectors k`;

/** A connector as the API answers it: never its token or its hash, only whether it has a token that works. */
function describeConnector(row: ConnectorRow) {
  const { token_hash: tokenHash, ...shown } = row;
  return {
    ...shown,
    kind: row.is_default ? 'local' : 'remote',
    token_state: row.is_default ? 'none' : row.revoked_at ? 'revoked' : tokenHash ? 'active' : 'none',
  };
}

const idOf = (request: { params: unknown }) => (request.params as { id: number }).id;

async function loadConnector(db: Queryable, companyId: number, id: number): Promise<ConnectorRow> {
  const [row] = await db.query<ConnectorRow>(`${connectorSelect} where k.id = $1 and k.company_id = $2`, [id, companyId]);
  if (!row) throw notFound();
  return row;
}

/** The Default connector is this server: it has no token and is neither renamed, revoked nor deleted. */
async function loadRemoteConnector(db: Queryable, companyId: number, id: number): Promise<ConnectorRow> {
  const row = await loadConnector(db, companyId, id);
  if (row.is_default) throw detailError(400, 'The Default connector is this server itself: it cannot be changed, given a token or deleted.', 'default_connector');
  return row;
}

async function checkName(db: Queryable, companyId: number, name: string, id: number | null): Promise<void> {
  const taken = await db.query('select 1 from connectors where company_id = $1 and lower(name) = lower($2) and id <> coalesce($3::int, 0)', [companyId, name.trim(), id]);
  if (taken.length) throw fieldError('name', 'A connector with that name already exists.');
}

/**
 * Connectors: where a connection's fetches run. Every company has the built-in Default connector, which runs them
 * in the server's own workers; remote connectors are processes near the sources (`npm run connector`) that sign in
 * with a token shown once when it is issued and kept only as its SHA-256.
 */
export function registerConnectorRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  /** Token changes go to the system log too: who can act as which connector is the installation's business. */
  const logToken = (request: Parameters<typeof callerOf>[0], connector: { id: number; name: string }, event: string, what: string) => {
    const caller = callerOf(request);
    return logConnectorEvent(db, 'info', event, { id: connector.id, company_id: caller.companyId, name: connector.name }, `${what} by ${caller.username}`, { user: caller.username });
  };
  routes.add({
    method: 'GET', url: '/connectors/connectors', name: 'connectors.list', summary: 'List connectors', access: 'connectors.view_connector', query: 'cartograph:api/list-query',
    handler: async (request) => {
      const query = request.query as ListQuery;
      const { limit, offset } = pageWindow(query);
      const companyId = callerOf(request).companyId;
      const search = query.search ? containsPattern(query.search) : null;
      const filter = 'k.company_id = $1 and ($2::text is null or k.name ilike $2 or k.description ilike $2)';
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from connectors k where ${filter}`, [companyId, search]);
      const rows = await db.query<ConnectorRow>(`${connectorSelect} where ${filter} order by k.is_default desc, lower(k.name), k.id limit $3 offset $4`, [companyId, search, limit, offset]);
      return paginated(request, query, count, rows.map(describeConnector));
    },
  });
  routes.add({
    method: 'GET', url: '/connectors/connectors/:id', name: 'connectors.read', summary: 'Read a connector', access: 'connectors.view_connector', params: 'cartograph:api/id-params',
    handler: async (request) => describeConnector(await loadConnector(db, callerOf(request).companyId, idOf(request))),
  });
  routes.add({
    method: 'POST', url: '/connectors/connectors', name: 'connectors.create', summary: 'Create a remote connector; its token is in this answer only',
    access: 'connectors.add_connector', body: 'cartograph:api/connector-write', status: 201,
    handler: async (request) => {
      const companyId = callerOf(request).companyId;
      const body = request.body as ConnectorBody;
      await checkName(db, companyId, body.name, null);
      const { id, token } = await db.transaction(async (transaction) => {
        const [row] = await transaction.query<{ id: number }>('insert into connectors (company_id, name, description) values ($1, $2, $3) returning id', [companyId, body.name.trim(), body.description ?? '']);
        const issued = issueConnectorToken(row.id);
        await transaction.query('update connectors set token_hash = $2, token_issued_at = now() where id = $1', [row.id, issued.hash]);
        return { id: row.id, token: issued.token };
      });
      await logToken(request, { id, name: body.name.trim() }, 'connector_token_created', 'created with a new token');
      return { ...describeConnector(await loadConnector(db, companyId, id)), token };
    },
  });
  routes.add({
    method: 'PUT', url: '/connectors/connectors/:id', name: 'connectors.update', summary: 'Rename a remote connector or change its notes',
    access: 'connectors.change_connector', params: 'cartograph:api/id-params', body: 'cartograph:api/connector-write',
    handler: async (request) => {
      const companyId = callerOf(request).companyId;
      const existing = await loadRemoteConnector(db, companyId, idOf(request));
      const body = request.body as ConnectorBody;
      await checkName(db, companyId, body.name, existing.id);
      await db.query('update connectors set name = $2, description = $3 where id = $1', [existing.id, body.name.trim(), body.description ?? existing.description]);
      return describeConnector(await loadConnector(db, companyId, existing.id));
    },
  });
  routes.add({
    method: 'POST', url: '/connectors/connectors/:id/rotate', name: 'connectors.rotate', summary: 'Issue a new token (the old one stops working); the token is in this answer only',
    access: 'connectors.change_connector', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const companyId = callerOf(request).companyId;
      const existing = await loadRemoteConnector(db, companyId, idOf(request));
      const issued = issueConnectorToken(existing.id);
      await db.query('update connectors set token_hash = $2, token_issued_at = now(), revoked_at = null where id = $1', [existing.id, issued.hash]);
      // Its lease calls held open wake, and the old token is refused at once.
      jobQueuedFor(existing.id);
      await logToken(request, existing, 'connector_token_rotated', 'token replaced (the previous one no longer works)');
      return { ...describeConnector(await loadConnector(db, companyId, existing.id)), token: issued.token };
    },
  });
  routes.add({
    method: 'POST', url: '/connectors/connectors/:id/revoke', name: 'connectors.revoke', summary: 'Revoke the token: the connector is refused until a new token is issued',
    access: 'connectors.change_connector', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const companyId = callerOf(request).companyId;
      const existing = await loadRemoteConnector(db, companyId, idOf(request));
      // Logged first: from the commit on, the connector's next call is refused and logged, and the log should read
      // in the order things happened.
      await logToken(request, existing, 'connector_token_revoked', 'token revoked');
      await db.transaction(async (transaction) => {
        await transaction.query('update connectors set token_hash = null, revoked_at = now() where id = $1', [existing.id]);
        // Fetches waiting for it would wait out their timeout for a connector that can no longer answer.
        await transaction.query("update connector_jobs set state = 'error', error = 'The connector''s token was revoked.' where connector_id = $1 and state in ('queued', 'leased')", [existing.id]);
      });
      jobQueuedFor(existing.id);
      return describeConnector(await loadConnector(db, companyId, existing.id));
    },
  });
  routes.add({
    method: 'DELETE', url: '/connectors/connectors/:id', name: 'connectors.delete', summary: 'Delete a remote connector that no connection uses',
    access: 'connectors.delete_connector', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const existing = await loadRemoteConnector(db, callerOf(request).companyId, idOf(request));
      // Moving its connections elsewhere silently would change which network they are fetched from.
      const deleted = await db.query('delete from connectors k where k.id = $1 and not exists (select 1 from connections c where c.connector_id = k.id) returning k.id', [existing.id]);
      if (!deleted.length) throw detailError(409, 'Connections run on this connector: assign them to another connector first.', 'connector_in_use');
    },
  });
  registerConnectorApiRoutes(routes, context);
}
