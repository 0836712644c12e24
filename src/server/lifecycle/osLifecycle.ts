import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lifecycleProductNames, OsLifecycle, type LifecycleCycle, type LifecyclePhase } from '../../core/normalization/index.js';
import { lockKeys, withAdvisoryLock } from '../db/advisoryLock.js';
import type { Database, Queryable } from '../db/database.js';
import { committedImports, FeedBusyError, importFeed } from '../avm/feedImport.js';
import { FeedError } from '../avm/feedText.js';
import type { LifecycleRow } from './lifecycleFeed.js';

// The OS lifecycle feed on the server: the snapshot bundled with Cartograph, imported once so that every install
// knows its operating systems' end of life from its first discovery, and the committed cycles a discovery reads.

/** endoflife.date's API v1 answer for its operating systems, taken from its repository on the day it names. */
export const bundledSnapshotFile = fileURLToPath(new URL('./endoflife-date-os.json', import.meta.url));
/** How the bundled snapshot's import names its source (its day is the file's `generated_at`). */
export const bundledSnapshotSource = 'the snapshot bundled with Cartograph (endoflife.date, 22 August 2026)';

/**
 * Imports the bundled snapshot when no import of the lifecycle feed is in use (a first start, or every import
 * removed): an upload or a download later replaces its products. A failure shows on the feed's status and leaves the
 * devices without lifecycle fields; it never stops the server.
 */
export async function ensureLifecycleFeed(db: Database): Promise<void> {
  // Processes starting together on one PostgreSQL take turns: the second finds the first's import in use.
  await withAdvisoryLock(db, lockKeys.bundledLifecycleFeed, async (connection) => {
    const [{ imported }] = await connection.query<{ imported: boolean }>(`select exists (select 1 from avm_imports where id in ${committedImports('endoflife-date')}) as imported`);
    if (imported) return;
    try {
      await importFeed(db, 'endoflife-date', bundledSnapshotSource, createReadStream(bundledSnapshotFile));
    } catch (error) {
      if (!(error instanceof FeedError || error instanceof FeedBusyError)) throw error;
    }
  });
}

type CycleRow = Pick<LifecycleRow, 'product' | 'cycle' | 'eol_date' | 'eol_ended' | 'eoas_date' | 'eoas_ended' | 'eoes_date' | 'eoes_ended'>;

const phase = (date: string | null, ended: boolean | null): LifecyclePhase | null => (ended === null ? null : { date, ended });

/** A stored cycle as the matcher reads it. */
export function cycleOfRow(row: CycleRow): LifecycleCycle {
  return { product: row.product, cycle: row.cycle, eol: { date: row.eol_date, ended: row.eol_ended }, eoas: phase(row.eoas_date, row.eoas_ended), eoes: phase(row.eoes_date, row.eoes_ended) };
}

/**
 * The lifecycle of the operating systems a discovery normalizes: the committed cycles of the products the rules
 * name, judged on the day the discovery started (UTC), so every connection of one snapshot is judged alike.
 * Undefined when no import is in use.
 */
export async function discoveryLifecycle(db: Queryable, discoveryId: number): Promise<OsLifecycle | undefined> {
  const [discovery] = await db.query<{ day: string }>(`select to_char(start_time at time zone 'UTC', 'YYYY-MM-DD') as day from discoveries where id = $1`, [discoveryId]);
  if (!discovery) return undefined;
  const rows = await db.query<CycleRow>(
    `select product, cycle, eol_date, eol_ended, eoas_date, eoas_ended, eoes_date, eoes_ended from lifecycle_cycles
      where import_id in ${committedImports('endoflife-date')} and product = any($1::text[])`,
    [lifecycleProductNames],
  );
  if (!rows.length) return undefined;
  return new OsLifecycle(rows.map(cycleOfRow), discovery.day);
}
