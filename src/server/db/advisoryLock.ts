import type { Database, Queryable } from './database.js';

/** Lock keys: constants shared by every Cartograph process on one database. */
export const lockKeys = { migrations: 727_100_001, jobQueueInstall: 727_100_002, bundledLifecycleFeed: 727_100_003 } as const;

/** Runs `work` while holding a session advisory lock, so processes starting together on one PostgreSQL take turns. */
export async function withAdvisoryLock<T>(db: Database, key: number, work: (connection: Queryable) => Promise<T>): Promise<T> {
  return db.session(async (connection) => {
    await connection.query('select pg_advisory_lock($1)', [key]);
    try {
      return await work(connection);
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [key]);
    }
  });
}
