import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { createScratchPostgres } from './harness.js';
import { postgresTestsRun } from '../support/postgresRequired.js';

// A pooled connection the server ended while it sat idle (a restart, a failover, pg_terminate_backend) is found out
// only when the next statement is sent on it. The pool's one connection has its socket paused while the server
// ends its backend, so the server's goodbye is read only after the next statement went out: the race, every time.
// (Reaching the socket takes pg internals; only this test does.)

type PausableClient = pg.PoolClient & { connection: { stream: { pause(): void; resume(): void } } };

describe.runIf(postgresTestsRun())('a PostgreSQL connection ended by the server while idle', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let admin: pg.Client;
  beforeAll(async () => {
    scratch = await createScratchPostgres();
    admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await scratch?.drop();
  });

  const databaseWithEndedConnection = async () => {
    const database = await openPostgresDatabase(scratch.url, 1);
    const client = (await database.pool.connect()) as PausableClient;
    const [{ pid }] = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
    client.connection.stream.pause();
    client.release();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The goodbye waiting in the socket is read on the next tick: after the next statement went out on it.
    database.pool.once('acquire', () => client.connection.stream.resume());
    return database;
  };

  it('answers a statement on a fresh connection', async () => {
    const database = await databaseWithEndedConnection();
    await expect(database.query('select 1 as one')).resolves.toEqual([{ one: 1 }]);
    await database.close();
  });

  it('runs a transaction on a fresh connection', async () => {
    const database = await databaseWithEndedConnection();
    await expect(database.transaction((connection) => connection.query('select 2 as two'))).resolves.toEqual([{ two: 2 }]);
    await database.close();
  });
});
