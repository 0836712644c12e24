import pg from 'pg';
import { classifyNetworkError } from '../connectivity.js';
import { uniqueHeaders } from '../files/fieldMapping.js';
import { connectByTlsMode, defaultPorts, plainValue, SqlFailure, tlsOptions, type SqlConfig, type SqlSession } from './sqlTypes.js';

const int8 = 20;
const numeric = 1700;

/** 64-bit integers and decimals as numbers when that loses nothing, otherwise as exact text. */
function exactNumber(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) && (Number.isSafeInteger(value) || (text.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15)) ? value : text;
}

const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if ((oid === int8 || oid === numeric) && format !== 'binary') return exactNumber;
    return pg.types.getTypeParser(oid, format ?? 'text');
  }) as typeof pg.types.getTypeParser,
};

/** The failure reason of a PostgreSQL error (SQLSTATE) or a network error, with what to fix. */
export function classifyPostgresError(error: unknown, target: string): SqlFailure {
  const failure = error as { code?: string; message?: string };
  const message = failure.message ?? String(error);
  switch (failure.code) {
    case '28P01':
    case '28000':
      return new SqlFailure('unauthorized', `${target} rejected the sign-in: ${message}`);
    case '3D000':
      return new SqlFailure('invalid_config', `${target}: ${message}`);
    case '42501':
      return new SqlFailure('forbidden', `${target}: ${message} (grant SELECT on it to the connection's user)`);
    case '57014':
      return new SqlFailure('timeout', `The query ran longer than its time limit and was stopped by ${target}.`);
    default:
  }
  if (/server does not support SSL/i.test(message)) return new SqlFailure('tls', `${target} does not accept TLS: set TLS to prefer or disable.`);
  if (/timeout/i.test(message)) return new SqlFailure('timeout', `${target} did not answer in time.`);
  if (failure.code && /^[0-9A-Z]{5}$/.test(failure.code)) return new SqlFailure('protocol', `${target}: ${message}`);
  const network = classifyNetworkError(error, target);
  return new SqlFailure(network.ok ? 'protocol' : network.reason, network.ok ? message : network.detail);
}

async function connect(config: SqlConfig, ssl: false | ReturnType<typeof tlsOptions>): Promise<pg.Client> {
  const client = new pg.Client({
    host: config.host, port: config.port ?? defaultPorts.postgresql, database: config.database, user: config.auth.username, password: config.auth.password,
    ssl, connectionTimeoutMillis: (config.timeout_seconds ?? 60) * 1000, application_name: 'cartograph', types: typeParsers,
  });
  // A connection lost later surfaces through the running query; this only keeps an idle error from crashing the process.
  client.on('error', () => {});
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}

/** Opens a PostgreSQL session whose queries run in one read-only, repeatable-read transaction with a statement timeout. */
export async function openPostgresSession(config: SqlConfig, signal: AbortSignal): Promise<SqlSession> {
  const target = `${config.host}:${config.port ?? defaultPorts.postgresql}`;
  const mode = config.tls_mode ?? 'require';
  let client: pg.Client;
  try {
    client = await connectByTlsMode(mode, (tls) => connect(config, tls && tlsOptions(config)), (error) => /server does not support SSL/i.test((error as Error).message));
  } catch (error) {
    throw classifyPostgresError(error, target);
  }
  const onAbort = () => void client.end().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  const run = async (text: string) => {
    try {
      return await client.query<unknown[]>({ text, rowMode: 'array' });
    } catch (error) {
      throw classifyPostgresError(error, target);
    }
  };
  await run('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await run(`SET LOCAL statement_timeout = ${Math.round((config.statement_timeout_seconds ?? 300) * 1000)}`);
  let cursors = 0;
  return {
    async *rows(query, batchSize) {
      const cursor = `cartograph_rows_${(cursors += 1)}`;
      await run(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${query}`);
      for (;;) {
        const result = await run(`FETCH ${batchSize} FROM ${cursor}`);
        if (!result.rows.length) break;
        // Rows come as arrays so two columns of one name (a.name, b.name) both survive, as name and name_2.
        const columns = uniqueHeaders(result.fields.map((field) => field.name));
        yield { columns, rows: result.rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, plainValue(row[index])]))) };
        if (result.rows.length < batchSize) break;
      }
      await run(`CLOSE ${cursor}`);
    },
    async probe(query) {
      await run(`SELECT * FROM (${query}) AS cartograph_probe LIMIT 0`);
    },
    async close() {
      signal.removeEventListener('abort', onAbort);
      await client.query('ROLLBACK').catch(() => {});
      await client.end().catch(() => {});
    },
  };
}
