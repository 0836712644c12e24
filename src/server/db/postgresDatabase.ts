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
    try {
      return await work(wrap(client));
    } finally {
      client.release();
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
          await connection.exec('rollback');
          throw error;
        }
      }),
    close: () => pool.end(),
  };
}
