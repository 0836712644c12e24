import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';

type SqlResult = { rows: unknown[] };

/**
 * pg-boss on Cartograph's own database: on PostgreSQL through its connection string, so separate `npm run worker`
 * processes share the jobs; on PGlite through the embedded connection (one process owns it).
 */
export function createJobQueue(db: Database, databaseUrl: string | null): PgBoss {
  if (databaseUrl) return new PgBoss({ connectionString: databaseUrl, max: 4 });
  // pg-boss sends several statements at once when it has no parameters; PGlite's query() takes only one.
  const executeSql = async (text: string, values?: unknown[]): Promise<SqlResult> => ({ rows: values?.length ? await db.query(text, values) : await db.exec(text) });
  return new PgBoss({ db: { executeSql } } as unknown as PgBoss.ConstructorOptions);
}

export const discoveryQueue = 'discovery';
