import type { OutboundPolicy } from '../../outbound/guard.js';
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { recordFromRow, resolveColumns } from '../files/fieldMapping.js';
import { openMysqlSession } from './mysqlSession.js';
import { openPostgresSession } from './postgresSession.js';
import { openSqlServerSession } from './sqlServerSession.js';
import { QueryRejected, readOnlyQuery } from './readOnlyQuery.js';
import { SqlFailure, type SqlConfig, type SqlSession } from './sqlTypes.js';

const batchSize = 500;

/** The configuration checked beyond its schema: a known dialect, one query per inventory, each a reading statement. */
function checkedConfig(raw: Record<string, unknown>): SqlConfig {
  const config = raw as SqlConfig;
  if (config.dialect !== 'postgresql' && config.dialect !== 'mysql' && config.dialect !== 'sqlserver') {
    throw new SqlFailure('invalid_config', `The database type ${String(config.dialect)} is not supported: PostgreSQL, MySQL/MariaDB and SQL Server are.`);
  }
  if (!Array.isArray(config.queries) || !config.queries.length) throw new SqlFailure('invalid_config', 'The connection has no query.');
  const entities = new Set<string>();
  const queries = config.queries.map((item, index) => {
    if (entities.has(item.entity)) throw new SqlFailure('invalid_config', `Two queries feed the ${item.entity} inventory: give each inventory one query (a UNION ALL can combine tables).`);
    entities.add(item.entity);
    try {
      return { entity: item.entity, query: readOnlyQuery(item.query, config.dialect) };
    } catch (error) {
      if (error instanceof QueryRejected) throw new SqlFailure('invalid_config', `Query ${index + 1} (${item.entity}): ${error.message}`);
      throw error;
    }
  });
  return { ...config, queries };
}

/** A SQL Server session for the form's SQL login: its TLS mode as asked, the certificate checked unless verification is off. */
function openSqlServer(config: SqlConfig, signal: AbortSignal, outbound?: OutboundPolicy): Promise<SqlSession> {
  return openSqlServerSession({
    host: config.host, port: config.port, database: config.database, auth: { kind: 'sql', username: config.auth.username, password: config.auth.password },
    tls: config.tls_mode ?? 'require', trustServerCertificate: config.verify_ssl === false, customCa: config.custom_ca,
    connectTimeoutMs: (config.timeout_seconds ?? 60) * 1000, statementTimeoutMs: (config.statement_timeout_seconds ?? 300) * 1000,
  }, signal, outbound);
}

function openSession(config: SqlConfig, signal: AbortSignal, outbound?: OutboundPolicy): Promise<SqlSession> {
  if (config.dialect === 'sqlserver') return openSqlServer(config, signal, outbound);
  return config.dialect === 'postgresql' ? openPostgresSession(config, signal) : openMysqlSession(config, signal);
}

/**
 * Streams the rows of every query, in batches through a cursor (PostgreSQL) or a paused row stream (MySQL, SQL
 * Server), inside one read-only transaction (SQL Server: one that is rolled back) with a statement timeout. Columns named after Cartograph fields (or common headers such
 * as hostname or serial) become those fields with their database types; every column is kept in the raw record.
 */
export async function* fetchSql(context: FetchContext): AsyncGenerator<FetchedRecord> {
  const config = checkedConfig(context.config);
  const session = await openSession(config, context.signal, context.outbound);
  try {
    for (const { entity, query } of config.queries) {
      let columns: Map<string, string> | null = null;
      for await (const batch of session.rows(query, batchSize)) {
        columns ??= resolveColumns(batch.columns, entity);
        for (const row of batch.rows) yield recordFromRow(row, entity, columns);
      }
    }
  } finally {
    await session.close();
  }
}

/** Signs in, opens the read-only transaction and checks every query compiles and may be read (no rows fetched). */
export async function testSql(rawConfig: Record<string, unknown>, signal: AbortSignal, outbound?: OutboundPolicy): Promise<ConnectivityResult> {
  let session: SqlSession | null = null;
  try {
    const config = checkedConfig(rawConfig);
    session = await openSession(config, signal, outbound);
    for (const { query } of config.queries) await session.probe(query);
    return { ok: true, detail: `Signed in to ${config.database} on ${config.host}; ${config.queries.length === 1 ? 'the query is' : `all ${config.queries.length} queries are`} readable.` };
  } catch (error) {
    if (error instanceof SqlFailure) return { ok: false, reason: error.reason, detail: error.message };
    return { ok: false, reason: 'protocol', detail: (error as Error).message };
  } finally {
    await session?.close();
  }
}

export function createSqlEngine(): AdapterEngine {
  return {
    name: 'sql',
    test: ({ config, signal, outbound }) => testSql(config, signal, outbound),
    fetch: (context) => fetchSql(context),
  };
}
