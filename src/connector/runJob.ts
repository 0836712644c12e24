import { catalogueEntryOf } from '../server/adapters/custom/customEngine.js';
import { readConfig } from '../server/config.js';
import { installPolicy } from '../server/outbound/policy.js';
import type { AdapterRuntime } from '../server/adapters/runtime.js';
import { JobGoneError, type ConnectorClient, type LeasedJob } from './connectorClient.js';

// The server takes requests up to 1 MB: batches stay well under it, and a record too large for any batch is skipped.
const batchBytes = 512 * 1024;
const recordsPerBatch = 500;
const largestRecordBytes = 900 * 1024;
const warningsPerJob = 100;
const warningLength = 1000;

/** Warnings of one job, sent with the next batch; past the first hundred only their count is kept. */
class Warnings {
  private pending: string[] = [];
  private kept = 0;
  private dropped = 0;
  add(message: string) {
    if (this.kept >= warningsPerJob) {
      this.dropped += 1;
      return;
    }
    this.kept += 1;
    this.pending.push(message.slice(0, warningLength));
  }
  take(): string[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
  takeLast(): string[] {
    const last = this.take();
    if (this.dropped) last.push(`${this.dropped} more warnings were not kept.`.slice(0, warningLength));
    return last.slice(-warningsPerJob);
  }
}

/**
 * Where the connector's calls may go: it runs inside the company's network, so private ranges are its purpose;
 * loopback only when its operator allows it (CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK=1); metadata never.
 */
const outbound = () => installPolicy(readConfig(process.env));

/** The adapter a job names. A custom adapter is the company's own: the server sends its definition with the job. */
const adapterOf = (runtime: AdapterRuntime, job: LeasedJob) =>
  job.custom_adapter ? catalogueEntryOf(job.custom_adapter, { secretFields: new Set() }) : runtime.catalogue.get(job.connection.adapter);

/** Runs a leased connection test with the server's own connection-test code and reports what it found. */
async function runTest(client: ConnectorClient, runtime: AdapterRuntime, job: LeasedJob, signal: AbortSignal, log: (line: string) => void): Promise<void> {
  const label = `test of ${job.connection.id === null ? 'unsaved settings' : `connection ${job.connection.id}`} (${job.connection.adapter})`;
  log(`running ${label}, job ${job.id}`);
  try {
    const adapter = adapterOf(runtime, job);
    const engine = adapter && runtime.engineFor(adapter);
    if (!adapter || !engine) throw new Error(`This connector has no fetch engine for the adapter ${job.connection.adapter}: update it to the server's version.`);
    const limit = AbortSignal.timeout((job.test_seconds ?? 25) * 1000);
    const result = await engine.test({ adapter: adapter.slug, config: job.config, signal: AbortSignal.any([signal, limit]), outbound: outbound() });
    await client.finish(job, { state: 'done', result: { ok: result.ok, ...(!result.ok && { reason: result.reason }), detail: result.detail.slice(0, 2000) } }, []);
    log(`finished ${label}: ${result.ok ? 'reached' : `failed (${result.reason})`}`);
  } catch (error) {
    if (error instanceof JobGoneError || signal.aborted) {
      log(`stopped ${label}`);
      return;
    }
    const message = (error as Error).message.slice(0, 1000);
    await client.finish(job, { state: 'error', error: message }, []).catch(() => undefined);
    log(`failed ${label}: ${message}`);
  }
}

/**
 * Runs one leased fetch with the same engines the server uses and streams its records back in batches, in order,
 * then reports how it ended. `signal` aborts it (the connector stops, or the server gave the job up).
 */
export async function runJob(client: ConnectorClient, runtime: AdapterRuntime, job: LeasedJob, signal: AbortSignal, log: (line: string) => void): Promise<void> {
  if (job.kind === 'test') return runTest(client, runtime, job, signal, log);
  const warnings = new Warnings();
  let batch: string[] = [];
  let bytes = 0;
  let sequence = 0;
  let sent = 0;
  const flush = async () => {
    if (!batch.length) return;
    const records = batch.map((line) => JSON.parse(line) as unknown);
    batch = [];
    bytes = 0;
    sequence += 1;
    await client.sendBatch(job, sequence, records, warnings.take());
    sent += records.length;
  };
  const label = `connection ${job.connection.id} (${job.connection.adapter})`;
  log(`fetching ${label}, job ${job.id} attempt ${job.attempt}`);
  try {
    const adapter = adapterOf(runtime, job);
    const engine = adapter && runtime.engineFor(adapter);
    if (!adapter || !engine) throw new Error(`This connector has no fetch engine for the adapter ${job.connection.adapter}: update it to the server's version.`);
    for await (const record of engine.fetch({ adapter: adapter.slug, config: job.config, signal, warn: (message) => warnings.add(message), outbound: outbound() })) {
      const line = JSON.stringify({ entity: record.entity, fields: record.fields, raw: record.raw ?? null });
      const size = Buffer.byteLength(line);
      if (size > largestRecordBytes) {
        warnings.add(`A ${record.entity} record of ${size} bytes is larger than the connector may send; it was skipped.`);
        continue;
      }
      if (batch.length >= recordsPerBatch || bytes + size > batchBytes) await flush();
      batch.push(line);
      bytes += size;
    }
    await flush();
    await client.finish(job, { state: 'done' }, warnings.takeLast());
    log(`finished ${label}: ${sent} records`);
  } catch (error) {
    if (error instanceof JobGoneError || signal.aborted) {
      log(`stopped ${label}: ${error instanceof JobGoneError ? error.message : 'the connector is stopping or the server gave the job up'}`);
      return;
    }
    // What was fetched before the failure is kept, as on the server.
    const message = (error as Error).message.slice(0, 1000);
    await flush().catch(() => undefined);
    await client.finish(job, { state: 'error', error: message }, warnings.takeLast()).catch(() => undefined);
    log(`failed ${label}: ${message}`);
  }
}
