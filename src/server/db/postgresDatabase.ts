import pg from 'pg';
import type { Database, Queryable, Row } from './database.js';

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T extends Row>(text: string, params: readonly unknown[] = []) {
      const result = await client.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      const results = (await client.query(script)) as unknown as pg.QueryResult<Row> | pg.QueryResult<Row>[];
      return (Array.isArray(results) ? (results.at(-1)?.rows ?? []) : results.rows) as Row[];
    },
  };
}

/** A PostgreSQL server reached through `DATABASE_URL`, with a small connection pool. */
export async function openPostgresDatabase(connectionString: string, poolSize = 10): Promise<Database & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // Idle clients can lose their server (restart); log through the pool instead of crashing the process.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  const session = async <T>(work: (connection: Queryable) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // A checked-out client whose server goes away (terminated, restarted) emits an error besides failing the query
    // in flight; unheard, that event would end the process. The failed query carries the error to the caller, and
    // the broken client is discarded instead of going back to the pool.
    let lost: Error | undefined;
    const onLost = (error: Error) => (lost = error);
    client.on('error', onLost);
    try {
      return await work(wrap(client));
    } finally {
      client.off('error', onLost);
      client.release(lost);
    }
  };
  return {
    engine: 'postgresql',
    pool,
    ...wrap(pool),
    session,
    transaction: (work) =>
      session(async (connection) => {
        await connection.exec('begin');
        try {
          const result = await work(connection);
          await connection.exec('commit');
          return result;
        } catch (error) {
          // On a connection that is gone the rollback fails too (and the server has rolled back already): the
          // error worth reporting is the first one.
          await connection.exec('rollback').catch(() => undefined);
          throw error;
        }
      }),
    close: () => pool.end(),
  };
}
