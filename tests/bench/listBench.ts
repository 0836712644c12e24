// What the inventory list benches share: a Cartograph on one engine whose snapshot is seeded straight by SQL (the
// discovery that would produce it is measured apart), and p50/p95 of API calls made as the console makes them,
// each checked to answer 200 first, or of hand-written statements sent straight to the database as a baseline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { startCartograph } from '../../src/server/server.js';
import { createScratchPostgres } from '../server/harness.js';
import { percentiles, time } from './measure.js';

const password = 'bench admin passphrase';
export const listRuns = 40;

export type ListBench = {
  db: Database;
  /** p50/p95 of one API call (and the count it answers). */
  measure: (method: 'GET' | 'POST', url: string, body?: object) => Promise<{ count: number; p50_ms: number; p95_ms: number }>;
  /** p50/p95 of statements sent one after the other straight to the database (a count and a page, say). */
  measureSql: (statements: [string, unknown[]][]) => Promise<{ p50_ms: number; p95_ms: number }>;
};

/** A new finished discovery of company 1, whose id the seeding fills. */
export async function newSnapshot(db: Database): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time, end_time) values (1, 'done', now(), now()) returning id");
  return id;
}

/** Inserts assets of one entity into a snapshot: their ids and fields as SQL over a series (`generate_series(1, n) as i`). */
export function seedAssets(db: Database, discoveryId: number, entity: string, idSql: string, fieldsSql: string, series: string): Promise<unknown> {
  return db.query(`insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons) select $1, '${entity}', ${idSql}, ${fieldsSql}, '{}', '{}', '[]' from ${series}`, [discoveryId]);
}

/** Starts Cartograph on `engine`, seeds it, signs in, runs `measureAll`, and removes everything. */
export async function withListBench<T>(engine: 'pglite' | 'postgresql', seed: (db: Database) => Promise<unknown>, measureAll: (bench: ListBench) => Promise<T>): Promise<T> {
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-bench-'));
  const database = scratch ? await openPostgresDatabase(scratch.url) : await openPgliteDatabase(join(dataDir, 'pglite'));
  const running = await startCartograph({ ...readConfig({}), outboundAllowLoopback: true, dataDir, adminPassword: password, secretKey: 'bench', signInRateLimitPerMinute: 100_000 }, { logger: false, database });
  try {
    await seed(running.context.db);
    const token = (await running.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password } })).json().access;
    const headers = { authorization: `Bearer ${token}` };
    const db = running.context.db;
    return await measureAll({
      db,
      measure: async (method, url, body) => {
        const call = () => running.app.inject({ method, url, payload: body, headers });
        const answer = await call();
        if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}: ${answer.body}`);
        return { count: answer.json().count, ...percentiles(await time(listRuns, call)) };
      },
      measureSql: async (statements) =>
        percentiles(
          await time(listRuns, async () => {
            for (const [sql, params] of statements) await db.query(sql, params);
          }),
        ),
    });
  } finally {
    await running.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `tsx tests/bench/<file>.ts [pglite|postgresql]`: one bench alone, printed as JSON. */
export async function runAlone(file: string, bench: (engine: 'pglite' | 'postgresql') => Promise<unknown>): Promise<void> {
  if (!process.argv[1]?.endsWith(file)) return;
  const engine = (process.argv[2] as 'pglite' | 'postgresql' | undefined) ?? (process.env.DATABASE_URL ? 'postgresql' : 'pglite');
  process.stdout.write(`${JSON.stringify(await bench(engine), null, 2)}\n`);
}
