import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogueAdapter } from '../adapters/catalogue.js';
import { sealSecrets } from '../auth/secretFields.js';
import type { CoreContext } from '../context.js';
import { logConnectorEvent } from './connectorEvents.js';
import { jobQueuedFor } from './jobSignals.js';

/** A connector not heard from for this long is offline: a running one says it is alive every 15 seconds. */
export const offlineAfterSeconds = 60;
// How often the waiting test looks for the connector's answer.
const pollMilliseconds = 200;

export type RemoteTestResult = { ok: boolean; reason?: string; detail: string };
export type RemoteTest = { companyId: number; connectorId: number; adapter: CatalogueAdapter; config: Record<string, unknown>; connectionId: number | null };

type ConnectorState = { id: number; company_id: number; name: string; revoked: boolean; online: boolean; last_seen_at: Date | null };
type TestJob = { state: 'queued' | 'leased' | 'done' | 'error'; result: RemoteTestResult | null; error: string };

const offline = (connector: ConnectorState): RemoteTestResult => ({
  ok: false,
  reason: 'connector_offline',
  detail: connector.revoked
    ? `The connector "${connector.name}" runs this connection's tests, and its token is revoked: issue a new token and restart it.`
    : `The connector "${connector.name}" runs this connection's tests and is offline (${connector.last_seen_at ? `last seen ${connector.last_seen_at.toISOString()}` : 'never seen'}): start it where it can reach the source.`,
});

/**
 * Tests connection settings on the remote connector that fetches them, with the connector's own connection-test
 * code, so the answer is about the network it runs in. The settings travel sealed in a short job the connector
 * leases; the job is removed when this returns. Waits `context.config.connectorTestWaitSeconds` at most.
 */
export async function testOnConnector(context: CoreContext, test: RemoteTest): Promise<RemoteTestResult> {
  const { db } = context;
  const [connector] = await db.query<ConnectorState>(
    `select id, company_id, name, revoked_at is not null or token_hash is null as revoked, last_seen_at,
       coalesce(last_seen_at > now() - make_interval(secs => $3), false) as online from connectors where id = $1 and company_id = $2`,
    [test.connectorId, test.companyId, offlineAfterSeconds],
  );
  if (!connector) throw new Error(`Connector ${test.connectorId} is not one of company ${test.companyId}.`);
  if (connector.revoked || !connector.online) return offline(connector);
  const [{ id }] = await db.query<{ id: number }>(
    "insert into connector_jobs (company_id, connector_id, connection_id, kind, adapter, config) values ($1, $2, $3, 'test', $4, $5) returning id",
    [test.companyId, test.connectorId, test.connectionId, test.adapter.slug, JSON.stringify(sealSecrets(context.keys.secretsKey, test.config, test.adapter.secretFields))],
  );
  jobQueuedFor(test.connectorId);
  const waitSeconds = context.config.connectorTestWaitSeconds;
  const deadline = Date.now() + waitSeconds * 1000;
  let job: TestJob | undefined;
  try {
    while (Date.now() < deadline) {
      [job] = await db.query<TestJob>('select state, result, error from connector_jobs where id = $1', [id]);
      if (!job) return { ok: false, reason: 'connector_error', detail: 'The test was withdrawn before the connector answered (its token was revoked?).' };
      if (job.state === 'done' && job.result) return job.result;
      if (job.state === 'error') return { ok: false, reason: 'connector_error', detail: `The connector "${connector.name}" could not run the test: ${job.error || 'no reason given'}` };
      await sleep(pollMilliseconds);
    }
  } finally {
    await db.query('delete from connector_jobs where id = $1', [id]).catch(() => undefined);
  }
  const picked = job?.state === 'leased';
  await logConnectorEvent(db, 'warning', 'connector_job_timed_out', connector, `the connection test of ${test.adapter.slug}${test.connectionId ? ` (connection ${test.connectionId})` : ''} got no answer within ${waitSeconds} s (${picked ? 'taken but not answered' : 'never picked up'})`, {
    kind: 'test', adapter: test.adapter.slug, ...(test.connectionId && { connection_id: test.connectionId }),
  });
  return picked
    ? { ok: false, reason: 'timeout', detail: `The connector "${connector.name}" took the test but did not answer within ${waitSeconds} s: the source may be slow or unreachable from there.` }
    : { ok: false, reason: 'connector_offline', detail: `The connector "${connector.name}" did not pick up the test within ${waitSeconds} s: is it running and able to reach Cartograph?` };
}
