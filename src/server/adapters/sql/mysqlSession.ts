import mysql from 'mysql2/promise';
import type { Readable } from 'node:stream';
import { classifyNetworkError } from '../connectivity.js';
import { uniqueHeaders } from '../files/fieldMapping.js';
import { connectByTlsMode, defaultPorts, plainValue, SqlFailure, tlsOptions, type SqlConfig, type SqlSession } from './sqlTypes.js';

type TypeCastField = { type: string; length: number; string: () => string | null };

/** MySQL has no boolean type: TINYINT(1) is how booleans are stored, so it is read as one. */
const typeCast = (field: TypeCastField, next: () => unknown) => {
  if (field.type === 'TINY' && field.length === 1) {
    const text = field.string();
    return text === null ? null : text !== '0';
  }
  return next();
};

/** The failure reason of a MySQL/MariaDB error code or a network error, with what to fix. */
export function classifyMysqlError(error: unknown, target: string): SqlFailure {
  const failure = error as { code?: string; errno?: number; message?: string };
  const message = failure.message ?? String(error);
  switch (failure.code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
    case 'ER_NOT_SUPPORTED_AUTH_MODE':
      return new SqlFailure('unauthorized', `${target} rejected the sign-in: ${message}`);
    case 'ER_DBACCESS_DENIED_ERROR':
    case 'ER_TABLEACCESS_DENIED_ERROR':
    case 'ER_COLUMNACCESS_DENIED_ERROR':
    case 'ER_SPECIFIC_ACCESS_DENIED_ERROR':
      return new SqlFailure('forbidden', `${target}: ${message} (grant SELECT on it to the connection's user)`);
    case 'ER_BAD_DB_ERROR':
      return new SqlFailure('invalid_config', `${target}: ${message}`);
    case 'ER_QUERY_TIMEOUT':
    case 'ER_STATEMENT_TIMEOUT':
      return new SqlFailure('timeout', `The query ran longer than its time limit and was stopped by ${target}.`);
    case 'HANDSHAKE_NO_SSL_SUPPORT':
      return new SqlFailure('tls', `${target} does not accept TLS: set TLS to prefer or disable.`);
    default:
  }
  // MariaDB reports its statement timeout as errno 1969 under a code mysql2 may not know.
  if (failure.errno === 1969 || failure.errno === 3024) return new SqlFailure('timeout', `The query ran longer than its time limit and was stopped by ${target}.`);
  if (failure.code === 'ETIMEDOUT' || /timeout/i.test(message)) return new SqlFailure('timeout', `${target} did not answer in time.`);
  if (failure.code?.startsWith('ER_')) return new SqlFailure('protocol', `${target}: ${message}`);
  const network = classifyNetworkError(error, target);
  return new SqlFailure(network.ok ? 'protocol' : network.reason, network.ok ? message : network.detail);
}

function connect(config: SqlConfig, tls: boolean): Promise<mysql.Connection> {
  return mysql.createConnection({
    host: config.host, port: config.port ?? defaultPorts.mysql, database: config.database, user: config.auth.username, password: config.auth.password,
    connectTimeout: (config.timeout_seconds ?? 60) * 1000, multipleStatements: false, supportBigNumbers: true, bigNumberStrings: false, decimalNumbers: true,
    // DATETIME has no zone: it is read as UTC, the same on every Cartograph host, rather than in the host's zone.
    dateStrings: false, timezone: 'Z', typeCast: typeCast as never, ...(tls && { ssl: tlsOptions(config) }),
  });
}

/** Opens a MySQL/MariaDB session whose queries run in one read-only transaction with a statement time limit. */
export async function openMysqlSession(config: SqlConfig, signal: AbortSignal): Promise<SqlSession> {
  const target = `${config.host}:${config.port ?? defaultPorts.mysql}`;
  const mode = config.tls_mode ?? 'require';
  let connection: mysql.Connection;
  try {
    connection = await connectByTlsMode(mode, (tls) => connect(config, tls), (error) => (error as { code?: string }).code === 'HANDSHAKE_NO_SSL_SUPPORT');
  } catch (error) {
    throw classifyMysqlError(error, target);
  }
  connection.on('error', () => {});
  const onAbort = () => connection.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  const run = async (sql: string) => {
    try {
      return await connection.query(sql);
    } catch (error) {
      throw classifyMysqlError(error, target);
    }
  };
  const [[{ version }]] = (await run('SELECT VERSION() AS version')) as unknown as [[{ version: string }]];
  const limit = config.statement_timeout_seconds ?? 300;
  // MariaDB and MySQL name their statement time limits differently (seconds vs milliseconds).
  await run(/mariadb/i.test(version) ? `SET SESSION max_statement_time = ${limit}` : `SET SESSION max_execution_time = ${limit * 1000}`);
  await run('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  await run('START TRANSACTION READ ONLY');
  return {
    async *rows(query, batchSize) {
      // The callback connection's row stream pauses the socket when the consumer lags: rows arrive as they are taken.
      type StreamingQuery = { stream: (options: object) => Readable; on: (event: 'fields', listener: (fields: { name: string }[]) => void) => void };
      const core = (connection as unknown as { connection: { query: (options: { sql: string; rowsAsArray: boolean }) => StreamingQuery } }).connection;
      const stream = core.query({ sql: query, rowsAsArray: true });
      let columns: string[] = [];
      stream.on('fields', (fields) => {
        columns = uniqueHeaders((fields ?? []).map((field) => field.name));
      });
      let batch: Record<string, unknown>[] = [];
      try {
        for await (const row of stream.stream({ highWaterMark: batchSize, objectMode: true }) as AsyncIterable<unknown[]>) {
          batch.push(Object.fromEntries(columns.map((column, index) => [column, plainValue(row[index])])));
          if (batch.length >= batchSize) {
            yield { columns, rows: batch };
            batch = [];
          }
        }
      } catch (error) {
        throw classifyMysqlError(error, target);
      }
      if (batch.length) yield { columns, rows: batch };
    },
    async probe(query) {
      await run(`SELECT * FROM (${query}) AS cartograph_probe LIMIT 0`);
    },
    async close() {
      signal.removeEventListener('abort', onAbort);
      await connection.query('ROLLBACK').catch(() => {});
      await connection.end().catch(() => connection.destroy());
    },
  };
}
