import { readFileSync } from 'node:fs';
import { OsLifecycle } from '../../src/core/normalization/index.js';
import { lifecycleRows, type LifecycleRow } from '../../src/server/lifecycle/lifecycleFeed.js';
import { bundledSnapshotFile, cycleOfRow } from '../../src/server/lifecycle/osLifecycle.js';

/** The cycles of the OS lifecycle snapshot bundled with Cartograph, as its import reads them. */
export async function bundledLifecycleRows(): Promise<LifecycleRow[]> {
  const rows: LifecycleRow[] = [];
  async function* whole() {
    yield readFileSync(bundledSnapshotFile, 'utf8');
  }
  for await (const row of lifecycleRows(whole(), bundledSnapshotFile)) rows.push(row);
  return rows;
}

/** The bundled snapshot's lifecycle as a discovery on `day` (YYYY-MM-DD) judges it. */
export async function bundledLifecycle(day: string): Promise<OsLifecycle> {
  return new OsLifecycle((await bundledLifecycleRows()).map(cycleOfRow), day);
}
