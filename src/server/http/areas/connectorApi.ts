import type { FastifyReply, FastifyRequest } from 'fastify';
import { adapterForCompany } from '../../adapters/custom/customCatalogue.js';
import { openSecrets } from '../../auth/secretFields.js';
import { checkConnectorToken, type TokenConnector, type TokenRefusal } from '../../connectors/connectorTokens.js';
import { logConnectorEvent, RefusalLog, refusalLogSeconds } from '../../connectors/connectorEvents.js';
import { untilJobQueued } from '../../connectors/jobSignals.js';
import { leaseSeconds } from '../../connectors/remoteFetch.js';
import { logSystemEvent } from '../../activities/activityLog.js';
import type { AppContext } from '../../context.js';
import type { FetchedRecord } from '../../adapters/engine.js';
import { detailError } from '../errors.js';
import type { RouteCatalogue } from '../routes.js';

type Hello = { version: string; host?: string; error?: string; running?: number[] };
type Batch = { attempt: number; sequence: number; records: FetchedRecord[]; warnings?: string[] };
type Finish = { attempt: number; state: 'done' | 'error'; error?: string; warnings?: string[]; result?: { ok: boolean; reason?: string; detail: string } };
type LeasedRow = { id: number; attempt: number; kind: 'fetch' | 'test'; connection_id: number | null; adapter: string; config: Record<string, unknown> | null };

/** How long a connector waits before asking again when the server could not hold its lease call open. */
export const connectorPollSeconds = 5;
/** Lease calls of one connector held open at once: a connector asks one at a time, a few cover a restart's overlap. */
const heldLeasesPerConnector = 4;
/** A held lease call also looks at the table this often: jobs queued by another process wake no one here. */
const heldLeaseRecheckMilliseconds = 2000;

const refused = () => detailError(401, 'Connector token not valid: it was revoked, replaced by a new one, or mistyped.', 'token_not_valid');

/**
 * The API remote connectors call (`npm run connector`). These routes take no user session: the connector's own
 * token (`Authorization: Bearer cgc_…`) names the connector, and through it the one company it works for; a job,
 * a connection and its secrets are only ever those of that connector's company.
 */
export function registerConnectorApiRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;

  const refusals = new RefusalLog();
  const describeRefusal: Record<TokenRefusal['reason'], string> = {
    malformed: 'a token that is not a connector token',
    unknown: 'a token naming no connector',
    revoked: 'its revoked token',
    wrong: 'a token that is not its current one (replaced by a rotation, or mistyped)',
  };
  /** A refused call goes to the system log, at most once per connector (or source address) and window. */
  const logRefusal = async (request: FastifyRequest, refusal: TokenRefusal) => {
    const connector = refusal.connector;
    const left = refusals.admit(connector ? `connector:${connector.id}` : `address:${request.ip}`);
    if (left === null) return;
    const note = `${left ? ` (${left} more refused since the last entry)` : ''}; further refusals within ${refusalLogSeconds / 60} minutes are not logged`;
    if (connector) {
      await logConnectorEvent(db, 'warning', 'connector_token_refused', connector, `refused a call from ${request.ip} with ${describeRefusal[refusal.reason]}${note}`, { reason: refusal.reason, source_ip: request.ip, left_out: left });
    } else {
      await logSystemEvent(db, 'warning', 'connector_token_refused', `Connector API: refused a call from ${request.ip} with ${describeRefusal[refusal.reason]}${note}`, { reason: refusal.reason, source_ip: request.ip, left_out: left }).catch(() => undefined);
    }
  };

  /** What is new about the connector since it was last seen: its first call, a new version. Each is logged once. */
  const noteArrival = async (connector: TokenConnector, hello?: Hello) => {
    if (connector.last_seen_at === null) {
      const [first] = await db.query('update connectors set last_seen_at = now() where id = $1 and last_seen_at is null returning id', [connector.id]);
      if (first) await logConnectorEvent(db, 'info', 'connector_first_seen', connector, `first seen${hello ? `, version ${hello.version}${hello.host ? ` on ${hello.host}` : ''}` : ''}`, { version: hello?.version ?? '', host: hello?.host ?? '' });
      return;
    }
    if (!hello || !connector.version || connector.version === hello.version) return;
    // Conditional on the version read, so two calls at once log the change once.
    const [changed] = await db.query('update connectors set version = $2 where id = $1 and version = $3 returning id', [connector.id, hello.version, connector.version]);
    if (changed) await logConnectorEvent(db, 'info', 'connector_version_changed', connector, `now runs version ${hello.version} (was ${connector.version})${hello.host ? ` on ${hello.host}` : ''}`, { version: hello.version, previous_version: connector.version, host: hello.host ?? '' });
  };

  /** The calling connector, which is marked seen with what it says about itself. */
  const presentedToken = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
  const connectorOf = async (request: FastifyRequest, hello?: Hello): Promise<TokenConnector> => {
    const token = presentedToken(request);
    const checked = token ? await checkConnectorToken(db, token) : { refusal: { reason: 'malformed', connector: null } as TokenRefusal };
    if ('refusal' in checked) {
      await logRefusal(request, checked.refusal);
      throw refused();
    }
    const { connector } = checked;
    await noteArrival(connector, hello);
    await db.query(
      `update connectors set last_seen_at = now(), version = coalesce($2, version), host = coalesce($3, host),
         last_error = coalesce($4, last_error), last_error_at = case when $4::text is null then last_error_at else now() end,
         error_count = error_count + case when $4::text is null then 0 else 1 end where id = $1`,
      [connector.id, hello?.version ?? null, hello?.host ?? null, hello?.error || null],
    );
    return connector;
  };

  /** Takes the next queued job of the connector (tests first: someone waits at the console for them), or null. */
  const takeJob = async (connector: TokenConnector): Promise<LeasedRow | null> => {
    const [job] = await db.query<LeasedRow>(
      `update connector_jobs set state = 'leased', attempt = attempt + 1, batches_received = 0, lease_expires_at = now() + make_interval(secs => $3)
        where id = (select id from connector_jobs where connector_id = $1 and company_id = $2 and state = 'queued' order by kind = 'test' desc, id limit 1 for update skip locked)
        returning id, attempt, kind, connection_id, adapter, config`,
      [connector.id, connector.company_id, leaseSeconds],
    );
    return job ?? null;
  };

  /** Lease calls held open now, per connector, and the signal that ends them all when the server closes. */
  const held = new Map<number, number>();
  const closing = new AbortController();
  routes.onClose(() => closing.abort());

  /**
   * Holds the lease call open until a job is queued for the connector or the wait ends (long poll), so a job starts
   * at once rather than at the connector's next poll. Null at the end of the wait: the connector asks again at once.
   */
  const waitForJob = async (request: FastifyRequest, reply: FastifyReply, connector: TokenConnector): Promise<{ job: LeasedRow | null; held: boolean }> => {
    const first = await takeJob(connector);
    const waitMilliseconds = context.config.connectorLeaseWaitSeconds * 1000;
    if (first || waitMilliseconds <= 0 || (held.get(connector.id) ?? 0) >= heldLeasesPerConnector) return { job: first, held: false };
    held.set(connector.id, (held.get(connector.id) ?? 0) + 1);
    // The connector hanging up ends the wait: a job taken for a caller who is gone would wait out its lease.
    const gone = new AbortController();
    // The response's close (not the request's, which closes once its body is read) tells of a caller gone.
    const hangUp = () => gone.abort();
    reply.raw.once('close', hangUp);
    const signal = AbortSignal.any([gone.signal, closing.signal]);
    try {
      const deadline = Date.now() + waitMilliseconds;
      while (!signal.aborted && Date.now() < deadline) {
        await untilJobQueued(connector.id, Math.min(heldLeaseRecheckMilliseconds, deadline - Date.now()), signal);
        if (signal.aborted) break;
        // A token revoked or rotated meanwhile (which wakes this wait) is refused now, not at the next call.
        const checked = await checkConnectorToken(db, presentedToken(request) ?? '');
        if ('refusal' in checked) {
          await logRefusal(request, checked.refusal);
          throw refused();
        }
        const job = await takeJob(connector);
        if (job) return { job, held: true };
      }
      return { job: null, held: true };
    } finally {
      reply.raw.off('close', hangUp);
      const count = (held.get(connector.id) ?? 1) - 1;
      if (count) held.set(connector.id, count);
      else held.delete(connector.id);
    }
  };

  /** A job this connector holds under the given attempt, or 409: the step stopped waiting, or another attempt has it. */
  const heldJob = async (connector: TokenConnector, jobId: number, attempt: number) => {
    const [job] = await db.query<{ id: number; kind: 'fetch' | 'test'; connection_id: number | null; adapter: string; batches_received: number }>(
      "select id, kind, connection_id, adapter, batches_received from connector_jobs where id = $1 and connector_id = $2 and company_id = $3 and state = 'leased' and attempt = $4",
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
    handler: async (request, reply) => {
      const connector = await connectorOf(request, request.body as Hello);
      const { job, held: wasHeld } = await waitForJob(request, reply, connector);
      // After a held call the connector asks again at once; a call that could not be held is repeated after a pause.
      const pollSeconds = wasHeld ? 0 : connectorPollSeconds;
      if (!job) return { job: null, poll_seconds: pollSeconds };
      if (job.kind === 'fetch' && job.attempt > 1) {
        await logConnectorEvent(db, 'warning', 'connector_job_leased_again', connector, `fetch of connection ${job.connection_id} leased again (attempt ${job.attempt}): the previous attempt lost its lease without a word`, { job_id: job.id, connection_id: job.connection_id ?? 0, attempt: job.attempt });
      }
      const [connection] = job.connection_id === null ? [] : await db.query<{ id: number; name: string; adapter: string; config: Record<string, unknown> }>(
        'select id, name, adapter, config from connections where id = $1 and company_id = $2', [job.connection_id, connector.company_id],
      );
      // A test carries its own settings (perhaps not saved yet); a fetch uses the connection's.
      const slug = job.kind === 'test' ? job.adapter : connection?.adapter;
      const adapter = slug ? await adapterForCompany(db, context.adapters, connector.company_id, slug) : undefined;
      const sealed = job.kind === 'test' ? job.config : connection?.config;
      if (!adapter || !sealed) {
        await db.query("update connector_jobs set state = 'error', error = 'The connection or its adapter is gone.' where id = $1", [job.id]);
        return { job: null, poll_seconds: 0 };
      }
      // The secrets leave the server only here, to the connector about to use them, never stored by it.
      const config = openSecrets(context.keys.secretsKey, sealed, adapter.secretFields);
      return {
        job: {
          id: job.id, attempt: job.attempt, kind: job.kind, lease_seconds: leaseSeconds,
          // A test's answer is waited for this long: the connector gives up its check a little before.
          ...(job.kind === 'test' && { test_seconds: Math.max(1, context.config.connectorTestWaitSeconds - 2) }),
          connection: { id: connection?.id ?? null, name: connection?.name ?? '', adapter: adapter.slug }, config,
          // A custom adapter's definition travels with the job: the connector reads its files with the same mapping.
          ...(adapter.custom && { custom_adapter: adapter.custom }),
        },
        poll_seconds: 0,
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
      if (job.kind !== 'fetch') throw detailError(409, 'A connection test sends no records: report its result with finish.', 'job_kind');
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
      const error = body.state === 'error' ? (body.error || `The ${job.kind === 'test' ? 'connection test' : 'fetch'} failed on the connector.`) : '';
      if (job.kind === 'test' && body.state === 'done' && !body.result) throw detailError(400, 'A finished connection test reports its result.', 'result_required');
      const result = job.kind === 'test' && body.result ? JSON.stringify(body.result) : null;
      await db.transaction(async (transaction) => {
        if (body.warnings?.length && job.kind === 'fetch') await transaction.query("insert into connector_job_batches (job_id, records, warnings) values ($1, '[]', $2)", [job.id, JSON.stringify(body.warnings)]);
        // A test's settings are not kept past its answer.
        await transaction.query('update connector_jobs set state = $2, error = $3, result = $4, config = case when kind = \'test\' then \'{}\'::jsonb else config end where id = $1', [job.id, body.state, error, result]);
        if (error) {
          const subject = job.connection_id === null ? `Test of ${job.adapter}` : `Connection ${job.connection_id}`;
          await transaction.query('update connectors set last_error = $2, last_error_at = now(), error_count = error_count + 1 where id = $1', [connector.id, `${subject}: ${error}`.slice(0, 2000)]);
        }
      });
      if (error) {
        await logConnectorEvent(db, 'warning', 'connector_job_failed', connector, `${job.kind === 'test' ? 'connection test' : 'fetch'} of ${job.connection_id === null ? `unsaved ${job.adapter} settings` : `connection ${job.connection_id}`} failed on the connector: ${error}`, {
          job_id: job.id, kind: job.kind, ...(job.connection_id !== null && { connection_id: job.connection_id }),
        });
      }
    },
  });
}
