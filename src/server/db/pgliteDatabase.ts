import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { copyStatement, copyText } from './copyText.js';
import type { Database, Queryable, Row } from './database.js';

function wrap(target: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<T extends Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      return ((await target.exec(script)).at(-1)?.rows ?? []) as Row[];
    },
    // PGlite reads a COPY's input from the blob given with the statement, named as the device /dev/blob.
    async copyRows(table, columns, rows) {
      await target.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([copyText(rows)]) });
    },
  };
}

/**
 * The embedded engine: PostgreSQL compiled to WASM, one process owning a data folder (or memory when `dataDir` is null).
 * `from` is a data folder dumped by PGlite's `dumpDataDir` to start from, instead of an empty cluster (initdb is most
 * of the time it takes to open one).
 */
export async function openPgliteDatabase(dataDir: string | null, from?: Blob): Promise<Database & { pglite: PGlite }> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({ dataDir: dataDir ?? undefined, loadDataDir: from });
  const self = wrap(pglite);
  return {
    engine: 'pglite',
    pglite,
    ...self,
    transaction: (work) => pglite.transaction((transaction) => work(wrap(transaction))),
    // PGlite has a single connection: every call already runs on it.
    session: (work) => work(self),
    close: () => pglite.close(),
  };
}
