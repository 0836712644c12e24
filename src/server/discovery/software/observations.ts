import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/database.js';
import type { FieldValues } from '../normalize.js';
import { addWarning, type DiscoveryProgress } from '../progress.js';

/** One source record of the software or vulnerability streams, read back from the snapshot. */
export type Observation = { key: string; connectionId: number; adapter: string; fields: FieldValues };

const recordsPerRead = 5000;

/**
 * The snapshot's records of the given stream entities, a few thousand at a time in key order: what a discovery
 * holds of them is one batch, however many millions a fleet reports.
 */
export async function* observations(db: Queryable, discoveryId: number, entities: string[]): AsyncGenerator<Observation> {
  let after = '';
  for (;;) {
    const rows = await db.query<{ record_key: string; connection_id: number; adapter: string; fields: FieldValues }>(
      `select record_key, connection_id, adapter, fields from snapshot_records
        where discovery_id = $1 and record_key > $2 and entity = any($3::text[]) order by record_key limit ${recordsPerRead}`,
      [discoveryId, after, entities],
    );
    for (const row of rows) yield { key: row.record_key, connectionId: row.connection_id, adapter: row.adapter, fields: row.fields };
    if (rows.length < recordsPerRead) return;
    after = rows[rows.length - 1].record_key;
  }
}

/** A stable asset id for an inventory key (a software's folding key, a vulnerability's CVE): later discoveries share it. */
export function inventoryAssetId(entity: string, key: string): string {
  return createHash('sha256').update(`${entity}:${key}`).digest('hex').slice(0, 20);
}

/** The first value of a field as trimmed text, or null. */
export function firstText(values: unknown[] | undefined): string | null {
  const first = values?.find((value) => typeof value === 'string' || typeof value === 'number');
  return first === undefined ? null : String(first).trim() || null;
}

/**
 * Problems of a stream's records, counted per connection and kind and reported once each as a connection warning
 * with the first example: "12 software records matched no device (first: 7:software:4f2a)".
 */
export class ObservationWarnings {
  private readonly counts = new Map<string, { connectionId: number; message: string; count: number; example: string }>();

  add(connectionId: number, message: string, example: unknown): void {
    const key = `${connectionId}\u0000${message}`;
    const entry = this.counts.get(key);
    if (entry) entry.count += 1;
    else this.counts.set(key, { connectionId, message, count: 1, example: String(example).slice(0, 120) });
  }

  /** Adds the counted problems to the connections' progress; a connection that had none becomes a warning. */
  report(progress: DiscoveryProgress): void {
    for (const { connectionId, message, count, example } of this.counts.values()) {
      const connection = progress.connections.find((item) => item.id === connectionId);
      if (!connection) continue;
      addWarning(connection, `${count} ${message} (first: ${example})`);
      if (connection.state === 'done') connection.state = 'warning';
    }
  }
}

/** The earliest (or, with `latest`, the latest) of a current ISO date and more. */
export function extremeDate(current: string | null, values: unknown[] | undefined, latest = false): string | null {
  let chosen = current;
  for (const value of values ?? []) {
    if (typeof value !== 'string' || !value) continue;
    if (!chosen || (latest ? value > chosen : value < chosen)) chosen = value;
  }
  return chosen;
}
