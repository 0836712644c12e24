import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyStatement, copyText } from './copyText.js';
import type { Database, Queryable, Row } from './database.js';

// SQLSTATE class 57: the server ended the backend (admin_shutdown, crash_shutdown, cannot_connect_now). A pooled
// connection can be ended while idle (a restart, a failover, an operator's pg_terminate_backend) and the pool hears
// of it only when the next statement fails on it. Ending a backend aborts its open transaction, so a statement that
// failed this way did not land, and sending it again on a fresh connection is safe.
const endedByServer = new Set(['57P01', '57P02', '57P03']);
const wasEndedByServer = (error: unknown) => endedByServer.has((error as { code?: string }).code ?? '');

async function onceMoreIfEnded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!wasEndedByServer(error)) throw error;
    return work();
  }
}

type CopyRows = Queryable['copyRows'];

/** COPY on one connection: the rows' text streamed to the server as the statement's input. */
const copyOn = (client: pg.PoolClient): CopyRows => async (table, columns, rows) => {
  await pipeline(Readable.from([copyText(rows)]), client.query(copyFrom(copyStatement(table, columns, 'stdin'))));
};

function wrap(client: pg.Pool | pg.PoolClient, copyRows: CopyRows): Queryable {
  return {
    copyRows,
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

type CheckedOut = { connection: Queryable; lost: () => Error | undefined; checkIn: (failure?: Error) => void };

/** A PostgreSQL server reached through `DATABASE_URL`, with a small connection pool. */
export async function openPostgresDatabase(connectionString: string, poolSize = 10): Promise<Database & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // Idle clients can lose their server (restart); log through the pool instead of crashing the process.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  // The pool itself has no COPY: a connection is taken for it, and put back broken if the copy failed half-way.
  const copyOnPooled: CopyRows = async (table, columns, rows) => {
    const client = await pool.connect();
    let failure: Error | undefined;
    try {
      await copyOn(client)(table, columns, rows);
    } catch (error) {
      failure = error as Error;
      throw error;
    } finally {
      client.release(failure);
    }
  };
  const pooled = wrap(pool, copyOnPooled);
  // A checked-out client whose server goes away (terminated, restarted) emits an error besides failing the query in
  // flight; unheard, that event would end the process, so it is heard from the moment of the checkout (the callback
  // form of connect runs then; a promise would resolve a tick late). The failed query carries the error to the
  // caller, and the broken client is discarded instead of going back to the pool.
  const checkOut = () =>
    new Promise<CheckedOut>((resolve, reject) =>
      pool.connect((error, client) => {
        if (error || !client) return reject(error);
        let lost: Error | undefined;
        const onLost = (reason: Error) => (lost = reason);
        client.on('error', onLost);
        resolve({
          connection: wrap(client, copyOn(client)),
          lost: () => lost,
          checkIn(failure?: Error) {
            client.off('error', onLost);
            client.release(lost ?? failure);
          },
        });
      }),
    );
  const session = async <T>(work: (connection: Queryable) => Promise<T>): Promise<T> => {
    const { connection, checkIn } = await checkOut();
    try {
      return await work(connection);
    } finally {
      checkIn();
    }
  };
  // `begin` is the first statement on the connection, so a connection the server ended while idle fails before any
  // work ran, and the transaction starts on a fresh one instead.
  const begun = () =>
    onceMoreIfEnded(async () => {
      const checkedOut = await checkOut();
      try {
        await checkedOut.connection.exec('begin');
        return checkedOut;
      } catch (error) {
        // The server's goodbye may have been read before `begin` went out: the statement then fails without a code.
        const reason = checkedOut.lost() ?? error;
        checkedOut.checkIn(reason as Error);
        throw reason;
      }
    });
  return {
    engine: 'postgresql',
    pool,
    query: (text, params) => onceMoreIfEnded(() => pooled.query(text, params)),
    exec: (script) => onceMoreIfEnded(() => pooled.exec(script)),
    copyRows: (table, columns, rows) => onceMoreIfEnded(() => pooled.copyRows(table, columns, rows)),
    session,
    async transaction(work) {
      const { connection, checkIn } = await begun();
      try {
        const result = await work(connection);
        await connection.exec('commit');
        return result;
      } catch (error) {
        // On a connection that is gone the rollback fails too (and the server has rolled back already): the error
        // worth reporting is the first one.
        await connection.exec('rollback').catch(() => undefined);
        throw error;
      } finally {
        checkIn();
      }
    },
    close: () => pool.end(),
  };
}
