import { outboundPolicyFor } from '../outbound/policy.js';
import { adapterForCompany } from '../adapters/custom/customCatalogue.js';
import { recordSourceOf } from '../adapters/exportedFrom.js';
import { openSecrets } from '../auth/secretFields.js';
import { remoteRecords } from '../connectors/remoteFetch.js';
import type { CoreContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import type { SourceRecord } from './correlation/correlate.js';
import { identifyingPart } from './correlation/identifiers.js';
import { normalizeRecord } from './normalize.js';
import { discoveryLifecycle } from '../lifecycle/osLifecycle.js';
import { addWarning, begin, finish, type ConnectionProgress } from './progress.js';
import { recordKeyFor } from './recordKeys.js';
import { observationEntities } from './relatedInventories.js';
import type { StepLease } from './steps.js';
import { writeBehind, writeRecords, type SerializedRecord } from './snapshotWriter.js';

export type ConnectionRow = {
  id: number; name: string; adapter: string; config: Record<string, unknown>;
  company_id: number;
  /** The remote connector that fetches this connection, or null when the Default connector (this server) does. */
  remote_connector_id: number | null;
  connector_name: string;
};

/** The columns of a ConnectionRow, from `connections c join connectors k on k.id = c.connector_id`. */
export const connectionRowColumns = `c.id, c.name, c.adapter, c.config, c.company_id,
  case when k.is_default then null else k.id end as remote_connector_id, k.name as connector_name`;

/**
 * A source record as the publish step holds it between reading and merging: only the identifying fields correlation
 * reads (one value unwrapped from its list), written beside the whole record as it is fetched. Whole records are
 * read back when their cluster is merged, so what a discovery holds does not grow with the size of the records.
 */
export type HeldRecord = SourceRecord & { entity: string };

/** Held records of a discovery, by entity. */
export type HeldRecords = Map<string, HeldRecord[]>;

const recordsPerWrite = 1000;
const identitiesPerRead = 20_000;

/** The identities of every record the discovery's fetches wrote, by entity, read a page at a time in key order. */
export async function readHeldRecords(db: Queryable, discoveryId: number): Promise<HeldRecords> {
  const held: HeldRecords = new Map();
  let after = '';
  for (;;) {
    const rows = await db.query<{ record_key: string; connection_id: number; adapter: string; entity: string; identity: Record<string, unknown> | null }>(
      // Installed software and findings are read back from the snapshot once the devices are merged: the key's
      // order still pages through their rows, but they are neither sent nor parsed.
      `select record_key, connection_id, adapter, entity, case when entity = any($4::text[]) then null else identity end as identity
         from snapshot_records where discovery_id = $1 and record_key > $2 order by record_key limit $3`,
      [discoveryId, after, identitiesPerRead, [...observationEntities]],
    );
    for (const row of rows) {
      if (observationEntities.has(row.entity)) continue;
      const record: HeldRecord = { key: row.record_key, connectionId: row.connection_id, adapter: row.adapter, entity: row.entity, fields: row.identity ?? {} };
      if (held.has(row.entity)) held.get(row.entity)!.push(record);
      else held.set(row.entity, [record]);
    }
    if (rows.length < identitiesPerRead) return held;
    after = rows[rows.length - 1].record_key;
  }
}

/** Where a fetch reports: its connection's progress, saved as it goes. */
export type FetchReport = { progress: ConnectionProgress; save: () => Promise<unknown> };

// Progress is saved as records arrive, at most this often (every save rewrites the discovery's progress).
const progressSaveMilliseconds = 2000;

/**
 * Fetches one connection into the snapshot, each record with its identity beside it. The connection's own failure
 * (its source, its settings) is recorded on its progress and never thrown: what it fetched before it failed is kept.
 * A failure to write to the snapshot is the database's, not the source's, and is thrown, as is losing the step to
 * another attempt: the step is then tried again rather than publish an inventory missing what was fetched.
 */
export async function fetchConnection(context: CoreContext, discoveryId: number, connection: ConnectionRow, report: FetchReport, timeoutSeconds: number, lease: StepLease): Promise<void> {
  const { progress } = report;
  begin(progress);
  await report.save();
  // An earlier attempt of this step may have written part of the connection's records: start from none.
  await context.db.query('delete from snapshot_records where discovery_id = $1 and connection_id = $2', [discoveryId, connection.id]);
  const writer = writeBehind();
  let batch: SerializedRecord[] = [];
  let storageFailure: unknown = null;
  let savedAt = Date.now();
  const flush = async () => {
    lease.throwIfSuperseded();
    const records = batch;
    batch = [];
    await writer.push(() =>
      writeRecords(context.db, discoveryId, records).catch((error: unknown) => {
        storageFailure ??= error;
        throw error;
      }),
    );
    if (Date.now() - savedAt >= progressSaveMilliseconds) {
      savedAt = Date.now();
      await report.save();
    }
  };
  // The day's OS lifecycle, read before the source is: a database that fails here is the database's fault, not the source's.
  const normalization = { lifecycle: await discoveryLifecycle(context.db, discoveryId) };
  try {
    const adapter = await adapterForCompany(context.db, context.adapters, connection.company_id, connection.adapter);
    const engine = adapter && context.adapters.engineFor(adapter);
    if (!adapter || !engine) throw new Error(`No fetch engine for adapter ${connection.adapter}`);
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutSeconds * 1000), lease.signal]);
    const warn = (message: string) => addWarning(progress, message);
    // A connection assigned to a remote connector is fetched there with the same engines; its records arrive here.
    const fetchedRecords = connection.remote_connector_id
      ? remoteRecords(context.db, { companyId: connection.company_id, connectorId: connection.remote_connector_id, connectorName: connection.connector_name, connectionId: connection.id, discoveryId }, signal, warn)
      : engine.fetch({ adapter: adapter.slug, config: openSecrets(context.keys.secretsKey, connection.config, adapter.secretFields), signal, warn, outbound: await outboundPolicyFor(context.db, context.config, connection.company_id) });
    const seenKeys = new Map<string, number>();
    // An export counts as the system it came from (its `exported_from`); every other source as its own adapter.
    const source = recordSourceOf(context.adapters.catalogue, adapter, connection.config);
    for await (const fetched of fetchedRecords) {
      const baseKey = recordKeyFor(connection.id, fetched, progress.records);
      const duplicates = seenKeys.get(baseKey) ?? 0;
      seenKeys.set(baseKey, duplicates + 1);
      const fields = normalizeRecord(fetched, source.adapter, normalization);
      if (fetched.entity === 'device' && source.categories.length) fields.SourceCategories = source.categories;
      const key = duplicates ? `${baseKey}#${duplicates}` : baseKey;
      batch.push({ key, connectionId: connection.id, adapter: source.adapter, entity: fetched.entity, fieldsJson: JSON.stringify(fields), identityJson: JSON.stringify(identifyingPart(fields)) });
      progress.records += 1;
      progress.by_entity[fetched.entity] = (progress.by_entity[fetched.entity] ?? 0) + 1;
      if (batch.length >= recordsPerWrite) await flush();
    }
    await flush();
    await writer.drain();
    finish(progress, progress.warning_count ? 'warning' : 'done');
  } catch (error) {
    lease.throwIfSuperseded();
    if (!storageFailure) await flush().then(() => writer.drain()).catch(() => undefined);
    else await writer.drain().catch(() => undefined);
    if (storageFailure) throw storageFailure;
    progress.error = (error as Error).message.slice(0, 1000);
    finish(progress, 'error');
  }
}
