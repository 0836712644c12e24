import { openSecrets } from '../adapters/secretFields.js';
import type { CoreContext } from '../context.js';
import type { SourceRecord } from './correlation/correlate.js';
import { identifyingPart } from './correlation/identifiers.js';
import { normalizeRecord } from './normalize.js';
import { addWarning, begin, finish, type ConnectionProgress } from './progress.js';
import { recordKeyFor } from './recordKeys.js';
import { writeBehind, writeRecords, type SerializedRecord } from './snapshotWriter.js';

export type ConnectionRow = { id: number; name: string; adapter: string; config: Record<string, unknown> };

/**
 * A source record as a discovery holds it between fetch and merge: the identifying fields correlation reads (one
 * value unwrapped from its list) and every field serialized, as written to the snapshot and parsed again only to
 * build its asset. Holding whole records as objects cost several times more memory than the text.
 */
export type HeldRecord = SourceRecord & SerializedRecord;

/** Held records of a discovery, by entity. */
export type HeldRecords = Map<string, HeldRecord[]>;

const recordsPerWrite = 1000;

/** Fetches one connection into the snapshot and `held`; its failure is recorded on its progress and never thrown. */
export async function fetchConnection(context: CoreContext, discoveryId: number, connection: ConnectionRow, progress: ConnectionProgress, timeoutSeconds: number, held: HeldRecords): Promise<void> {
  begin(progress);
  const writer = writeBehind();
  try {
    const adapter = context.adapters.catalogue.get(connection.adapter);
    const engine = adapter && context.adapters.engineFor(adapter);
    if (!adapter || !engine) throw new Error(`No fetch engine for adapter ${connection.adapter}`);
    const config = openSecrets(context.keys.secretsKey, connection.config, adapter.secretFields);
    const signal = AbortSignal.timeout(timeoutSeconds * 1000);
    let batch: HeldRecord[] = [];
    const seenKeys = new Map<string, number>();
    for await (const fetched of engine.fetch({ adapter: adapter.slug, config, signal, warn: (message) => addWarning(progress, message) })) {
      const baseKey = recordKeyFor(connection.id, fetched, progress.records);
      const duplicates = seenKeys.get(baseKey) ?? 0;
      seenKeys.set(baseKey, duplicates + 1);
      const fields = normalizeRecord(fetched, adapter.slug);
      const record: HeldRecord = {
        key: duplicates ? `${baseKey}#${duplicates}` : baseKey, connectionId: connection.id, adapter: adapter.slug, entity: fetched.entity,
        fields: identifyingPart(fields), fieldsJson: JSON.stringify(fields),
      };
      batch.push(record);
      if (held.has(record.entity)) held.get(record.entity)!.push(record);
      else held.set(record.entity, [record]);
      progress.records += 1;
      progress.by_entity[fetched.entity] = (progress.by_entity[fetched.entity] ?? 0) + 1;
      if (batch.length >= recordsPerWrite) {
        const full = batch;
        batch = [];
        await writer.push(() => writeRecords(context.db, discoveryId, full));
      }
    }
    await writer.push(() => writeRecords(context.db, discoveryId, batch));
    await writer.drain();
    finish(progress, progress.warning_count ? 'warning' : 'done');
  } catch (error) {
    await writer.drain().catch(() => undefined);
    progress.error = (error as Error).message.slice(0, 1000);
    finish(progress, 'error');
  }
}
