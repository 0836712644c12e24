import PgBoss from 'pg-boss';
import type { Database, Queryable } from '../db/database.js';
import { withRetries } from '../db/retry.js';

type SqlResult = { rows: unknown[] };

// pg-boss sends several statements at once when it has no parameters; PGlite's query() takes only one.
const sqlExecutor = (db: Queryable) => async (text: string, values?: unknown[]): Promise<SqlResult> => ({ rows: values?.length ? await db.query(text, values) : await db.exec(text) });

/**
 * pg-boss on Cartograph's own database: on PostgreSQL through its connection string, so separate `npm run worker`
 * processes share the jobs; on PGlite through the embedded connection (one process owns it).
 */
export function createJobQueue(db: Database, databaseUrl: string | null): PgBoss {
  if (databaseUrl) return new PgBoss({ connectionString: databaseUrl, max: 4 });
  // pg-boss records a job's end without awaiting it: a statement that meets a connection the database just dropped
  // is tried again on a fresh one, rather than rejected where nothing can catch it.
  const execute = sqlExecutor(db);
  const executeSql = (text: string, values?: unknown[]) => withRetries(() => execute(text, values), 3);
  return new PgBoss({ db: { executeSql } } as unknown as PgBoss.ConstructorOptions);
}

/** pg-boss's `db` option for a job sent inside the caller's transaction: the job exists exactly when it commits. */
export function jobSender(transaction: Queryable): { executeSql: (text: string, values?: unknown[]) => Promise<SqlResult> } {
  return { executeSql: sqlExecutor(transaction) };
}
