import type { FastifyRequest } from 'fastify';
import { adapterForCompany } from '../../adapters/custom/customCatalogue.js';
import { openSecrets } from '../../adapters/secretFields.js';
import { connectorOfToken, type TokenConnector } from '../../connectors/connectorTokens.js';
import { leaseSeconds } from '../../connectors/remoteFetch.js';
import type { AppContext } from '../../context.js';
import type { FetchedRecord } from '../../adapters/engine.js';
import { detailError } from '../errors.js';
import type { RouteCatalogue } from '../routes.js';

type Hello = { version: string; host?: string; error?: string; running?: number[] };
type Batch = { attempt: number; sequence: number; records: FetchedRecord[]; warnings?: string[] };
type Finish = { attempt: number; state: 'done' | 'error'; error?: string; warnings?: string[] };

/** How often a connector should poll for jobs and say it is alive; its leases outlive several missed beats. */
export const connectorPollSeconds = 5;

const refused = () => detailError(401, 'Connector token not valid: it was revoked, replaced by a new one, or mistyped.', 'token_not_valid');

/**
 * The API remote connectors call (`npm run connector`). These routes take no user session: the connector's own
 * token (`Authorization: Bearer cgc_…`) names the connector, and through it the one company it works for; a job,
 * a connection and its secrets are only ever those of that connector's company.
 */
export function registerConnectorApiRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;

  /** The calling connector, which is marked seen with what it says about itself. */
  const connectorOf = async (request: FastifyRequest, hello?: Hello): Promise<TokenConnector> => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const connector = match ? await connectorOfToken(db, match[1]) : null;
    if (!connector) throw refused();
    await db.query(
      `update connectors set last_seen_at = now(), version = coalesce($2, version), host = coalesce($3, host),
         last_error = coalesce($4, last_error), last_error_at = case when $4::text is null then last_error_at else now() end,
         error_count = error_count + case when $4::text is null then 0 else 1 end where id = $1`,
      [connector.id, hello?.version ?? null, hello?.host ?? null, hello?.error || null],
    );
    return connector;
  };

  /** A job this connector holds under the given attempt, or 409: the step stopped waiting, or another attempt has it. */
  const heldJob = async (connector: TokenConnector, jobId: number, attempt: number) => {
    const [job] = await db.query<{ id: number; connection_id: number; batches_received: number }>(
      "select id, connection_id, batches_received from connector_jobs where id = $1 and connector_id = $2 and company_id = $3 and state = 'leased' and attempt = $4",
      [jobId, connector.id, connector.company_id, attempt],
    );
    if (!job) throw detailError(409, 'This job is no longer yours: the discovery stopped waiting for it, or it was given to another attempt.', 'job_gone');
    return job;
  };

  routes.add({
    method: 'POST', url: '/connectors/api/heartbeat', name: 'connector_api.heartbeat', summary: 'A connector says it is alive (connector token)',
    access: 'public', body: 'cartograph:api/connector-hello',
    handler: async (request) => {
      const connector = await connectorOf(request, request.body as Hello);
      // A connector that is alive keeps the leases of the fetches it is running, even while a slow source sends nothing.
      // Only the jobs it says it runs: a restarted connector must not keep alive the leases its previous process held.
      const held = await db.query<{ id: number; attempt: number }>(
        "update connector_jobs set lease_expires_at = now() + make_interval(secs => $2) where connector_id = $1 and state = 'leased' and id = any($3::int[]) returning id, attempt",
        [connector.id, leaseSeconds, (request.body as Hello).running ?? []],
      );
      // The jobs it still holds: a job missing from the list was given up by its discovery, and the connector stops it.
      return { connector: { id: connector.id, name: connector.name }, poll_seconds: connectorPollSeconds, jobs: held };
    },
  });
  routes.add({
    method: 'POST', url: '/connectors/api/jobs/lease', name: 'connector_api.lease', summary: 'Take the next fetch job with its connection settings, secrets included (connector token)',
    access: 'public', body: 'cartograph:api/connector-hello',
    handler: async (request) => {
      const connector = await connectorOf(request, request.body as Hello);
      const [job] = await db.query<{ id: number; attempt: number; connection_id: number }>(
        `update connector_jobs set state = 'leased', attempt = attempt + 1, batches_received = 0, lease_expires_at = now() + make_interval(secs => $3)
          where id = (select id from connector_jobs where connector_id = $1 and company_id = $2 and state = 'queued' order by id limit 1 for update skip locked)
          returning id, attempt, connection_id`,
        [connector.id, connector.company_id, leaseSeconds],
      );
      if (!job) return { job: null, poll_seconds: connectorPollSeconds };
      const [connection] = await db.query<{ id: number; name: string; adapter: string; config: Record<string, unknown> }>(
        'select id, name, adapter, config from connections where id = $1 and company_id = $2', [job.connection_id, connector.company_id],
      );
      const adapter = connection && (await adapterForCompany(db, context.adapters, connector.company_id, connection.adapter));
      if (!connection || !adapter) {
        await db.query("update connector_jobs set state = 'error', error = 'The connection or its adapter is gone.' where id = $1", [job.id]);
        return { job: null, poll_seconds: connectorPollSeconds };
      }
      // The secrets leave the server only here, to the connector about to use them, never stored by it.
      const config = openSecrets(context.keys.secretsKey, connection.config, adapter.secretFields);
      return {
        job: {
          id: job.id, attempt: job.attempt, lease_seconds: leaseSeconds, connection: { id: connection.id, name: connection.name, adapter: adapter.slug }, config,
          // A custom adapter's definition travels with the job: the connector reads its files with the same mapping.
          ...(adapter.custom && { custom_adapter: adapter.custom }),
        },
        poll_seconds: connectorPollSeconds,
      };
    },
  });
  routes.add({
    method: 'POST', url: '/connectors/api/jobs/:id/records', name: 'connector_api.records', summary: 'Send a batch of fetched records for a leased job (connector token)',
    access: 'public', params: 'cartograph:api/id-params', body: 'cartograph:api/connector-batch',
    handler: async (request) => {
      const connector = await connectorOf(request);
      const body = request.body as Batch;
      const job = await heldJob(connector, (request.params as { id: number }).id, body.attempt);
      if (body.sequence <= job.batches_received) return { accepted: 0, duplicate: true };
      if (body.sequence !== job.batches_received + 1) throw detailError(409, `Batch ${job.batches_received + 1} was expected, not ${body.sequence}.`, 'batch_out_of_order');
      const records = body.records.map((record) => ({ entity: record.entity, fields: record.fields, raw: record.raw ?? null }));
      const stored = await db.transaction(async (transaction) => {
        // The sequence check is repeated under the row's update, so two copies of one batch sent at once store one.
        const [counted] = await transaction.query<{ id: number }>(
          `update connector_jobs set records_received = records_received + $2, batches_received = $4, lease_expires_at = now() + make_interval(secs => $3)
            where id = $1 and batches_received = $4 - 1 returning id`,
          [job.id, records.length, leaseSeconds, body.sequence],
        );
        if (!counted) return false;
        await transaction.query('insert into connector_job_batches (job_id, records, warnings) values ($1, $2, $3)', [job.id, JSON.stringify(records), JSON.stringify(body.warnings ?? [])]);
        return true;
      });
      return stored ? { accepted: records.length } : { accepted: 0, duplicate: true };
    },
  });
  routes.add({
    method: 'POST', url: '/connectors/api/jobs/:id/finish', name: 'connector_api.finish', summary: 'Report how a leased job ended, after its last batch (connector token)',
    access: 'public', params: 'cartograph:api/id-params', body: 'cartograph:api/connector-finish',
    handler: async (request) => {
      const body = request.body as Finish;
      const connector = await connectorOf(request);
      const job = await heldJob(connector, (request.params as { id: number }).id, body.attempt);
      const error = body.state === 'error' ? (body.error || 'The fetch failed on the connector.') : '';
      await db.transaction(async (transaction) => {
        if (body.warnings?.length) await transaction.query("insert into connector_job_batches (job_id, records, warnings) values ($1, '[]', $2)", [job.id, JSON.stringify(body.warnings)]);
        await transaction.query('update connector_jobs set state = $2, error = $3 where id = $1', [job.id, body.state, error]);
        if (error) {
          await transaction.query('update connectors set last_error = $2, last_error_at = now(), error_count = error_count + 1 where id = $1', [connector.id, `Connection ${job.connection_id}: ${error}`.slice(0, 2000)]);
        }
      });
    },
  });
}
