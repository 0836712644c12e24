import { openSecrets } from '../adapters/secretFields.js';
import type { CoreContext } from '../context.js';
import type { SourceRecord } from './correlation/correlate.js';
import { identifyingPart } from './correlation/identifiers.js';
import { normalizeRecord } from './normalize.js';
import { addWarning, begin, finish, type ConnectionProgress } from './progress.js';
import { recordKeyFor } from './recordKeys.js';
import { observationEntities } from './relatedInventories.js';
import { writeBehind, writeRecords, type SerializedRecord } from './snapshotWriter.js';

export type ConnectionRow = { id: number; name: string; adapter: string; config: Record<string, unknown> };

/**
 * A source record as a discovery holds it between fetch and merge: only the identifying fields correlation reads
 * (one value unwrapped from its list). The whole record goes to the snapshot as it is fetched and is read back from
 * there when its cluster is merged, so what a discovery holds does not grow with the size of the records.
 */
export type HeldRecord = SourceRecord & { entity: string };

/** Held records of a discovery, by entity. */
export type HeldRecords = Map<string, HeldRecord[]>;

const recordsPerWrite = 1000;

/** Adds records to the held ones of their entity. */
function hold(held: HeldRecords, records: HeldRecord[]): void {
  for (const record of records) {
    // Installed software and findings are read back from the snapshot once the devices are merged.
    if (observationEntities.has(record.entity)) continue;
    if (held.has(record.entity)) held.get(record.entity)!.push(record);
    else held.set(record.entity, [record]);
  }
}

/**
 * Fetches one connection into the snapshot and `held`. The connection's own failure (its source, its settings) is
 * recorded on its progress and never thrown: what it fetched before it failed is kept. A failure to write to the
 * snapshot is the database's, not the source's, and is thrown: the discovery fails rather than publish an inventory
 * missing what was fetched. A record is held once it is written, so every held record can be read back when its
 * cluster is merged.
 */
export async function fetchConnection(context: CoreContext, discoveryId: number, connection: ConnectionRow, progress: ConnectionProgress, timeoutSeconds: number, held: HeldRecords): Promise<void> {
  begin(progress);
  const writer = writeBehind();
  let batch: SerializedRecord[] = [];
  let identities: HeldRecord[] = [];
  let storageFailure: unknown = null;
  const flush = () => {
    const [records, written] = [batch, identities];
    [batch, identities] = [[], []];
    return writer.push(() =>
      writeRecords(context.db, discoveryId, records).then(
        () => hold(held, written),
        (error: unknown) => {
          storageFailure ??= error;
          throw error;
        },
      ),
    );
  };
  try {
    const adapter = context.adapters.catalogue.get(connection.adapter);
    const engine = adapter && context.adapters.engineFor(adapter);
    if (!adapter || !engine) throw new Error(`No fetch engine for adapter ${connection.adapter}`);
    const config = openSecrets(context.keys.secretsKey, connection.config, adapter.secretFields);
    const signal = AbortSignal.timeout(timeoutSeconds * 1000);
    const seenKeys = new Map<string, number>();
    for await (const fetched of engine.fetch({ adapter: adapter.slug, config, signal, warn: (message) => addWarning(progress, message) })) {
      const baseKey = recordKeyFor(connection.id, fetched, progress.records);
      const duplicates = seenKeys.get(baseKey) ?? 0;
      seenKeys.set(baseKey, duplicates + 1);
      const fields = normalizeRecord(fetched, adapter.slug);
      const key = duplicates ? `${baseKey}#${duplicates}` : baseKey;
      batch.push({ key, connectionId: connection.id, adapter: adapter.slug, entity: fetched.entity, fieldsJson: JSON.stringify(fields) });
      identities.push({ key, connectionId: connection.id, adapter: adapter.slug, entity: fetched.entity, fields: identifyingPart(fields) });
      progress.records += 1;
      progress.by_entity[fetched.entity] = (progress.by_entity[fetched.entity] ?? 0) + 1;
      if (batch.length >= recordsPerWrite) await flush();
    }
    await flush();
    await writer.drain();
    finish(progress, progress.warning_count ? 'warning' : 'done');
  } catch (error) {
    await flush().catch(() => undefined);
    await writer.drain().catch(() => undefined);
    if (storageFailure) throw storageFailure;
    progress.error = (error as Error).message.slice(0, 1000);
    finish(progress, 'error');
  }
}
