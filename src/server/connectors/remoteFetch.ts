import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchedRecord } from '../adapters/engine.js';
import type { Queryable } from '../db/database.js';

/** How long a lease lasts without a word from its connector (a batch or a heartbeat renews it). */
export const leaseSeconds = 60;
/** Leases a job gets before the fetch fails: a connector that dies before sending anything is given the job again. */
export const leasesPerJob = 3;
// How often the waiting fetch step looks for new batches while none are there.
const pollMilliseconds = 500;
const batchesPerRead = 20;

export type RemoteFetch = { companyId: number; connectorId: number; connectorName: string; connectionId: number; discoveryId: number };

type JobState = { state: 'queued' | 'leased' | 'done' | 'error'; attempt: number; expired: boolean; records_received: number; error: string };

/** Why the step stopped waiting, told in the connector's terms rather than as an abort. */
function waitFailure(fetch: RemoteFetch, job: JobState | undefined, signal: AbortSignal): Error {
  const reason = signal.reason as Error | undefined;
  if (reason?.name !== 'TimeoutError') return reason instanceof Error ? reason : new Error('The fetch was cancelled.');
  if (!job || job.state === 'queued') return new Error(`The connector "${fetch.connectorName}" did not pick up the fetch in time: is it running and able to reach Cartograph?`);
  return new Error(`The connector "${fetch.connectorName}" did not finish the fetch in time (${job.records_received} records received).`);
}

/**
 * The records of a connection that a remote connector fetches, as an engine would stream them: queues a job for the
 * connector, then reads the batches it sends until it reports the end. Throws when the connector reports a failure,
 * stops answering, or `signal` aborts (the connection's timeout): the connection fails, the discovery goes on.
 * The job row is removed however this ends, so a connector still sending afterwards is refused.
 */
export async function* remoteRecords(db: Queryable, fetch: RemoteFetch, signal: AbortSignal, warn: (message: string) => void): AsyncGenerator<FetchedRecord> {
  // An earlier attempt of this step (its worker died) may have left its job: that job starts over.
  await db.query('delete from connector_jobs where discovery_id = $1 and connection_id = $2', [fetch.discoveryId, fetch.connectionId]);
  const [{ id }] = await db.query<{ id: number }>(
    'insert into connector_jobs (company_id, connector_id, connection_id, discovery_id) values ($1, $2, $3, $4) returning id',
    [fetch.companyId, fetch.connectorId, fetch.connectionId, fetch.discoveryId],
  );
  let job: JobState | undefined;
  try {
    for (;;) {
      if (signal.aborted) throw waitFailure(fetch, job, signal);
      // The state is read before the batches: a connector sends its last batch before it reports the end, so a
      // state of done read first means every batch is already there to read.
      [job] = await db.query<JobState>(
        'select state, attempt, lease_expires_at < now() as expired, records_received, error from connector_jobs where id = $1', [id],
      );
      if (!job) throw new Error('The connector job was removed while the fetch waited for it.');
      const batches = await db.query<{ id: string; records: FetchedRecord[]; warnings: string[] }>(
        'select id, records, warnings from connector_job_batches where job_id = $1 order by id limit $2', [id, batchesPerRead],
      );
      for (const batch of batches) {
        for (const message of batch.warnings) warn(message);
        for (const record of batch.records) yield record;
        await db.query('delete from connector_job_batches where id = $1', [batch.id]);
      }
      if (batches.length === batchesPerRead) continue;
      if (job.state === 'done') return;
      if (job.state === 'error') throw new Error(job.error || `The connector "${fetch.connectorName}" reported a failure without a reason.`);
      if (job.state === 'leased' && job.expired) {
        // What was already read cannot be taken back: a connector lost mid-stream fails the fetch rather than
        // have a second attempt send its records twice.
        if (job.records_received > 0 || job.attempt >= leasesPerJob) {
          throw new Error(`The connector "${fetch.connectorName}" stopped answering during the fetch (attempt ${job.attempt}, ${job.records_received} records received).`);
        }
        await db.query("update connector_jobs set state = 'queued' where id = $1 and state = 'leased' and lease_expires_at < now()", [id]);
        continue;
      }
      await sleep(pollMilliseconds, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    await db.query('delete from connector_jobs where id = $1', [id]).catch(() => undefined);
  }
}
