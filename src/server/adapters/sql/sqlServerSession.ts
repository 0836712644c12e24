// Microsoft SQL Server through tedious (TDS, pure JavaScript): SQL logins or Windows accounts (NTLM), TLS as the
// connection says, every connection through the outbound guard, rows streamed with back-pressure.
import { rootCertificates } from 'node:tls';
import { Connection, Request, type ConnectionConfiguration } from 'tedious';
import { checkDestination, type OutboundPolicy } from '../../outbound/guard.js';
import { classifyNetworkError } from '../connectivity.js';
import { uniqueHeaders } from '../files/fieldMapping.js';
import { plainValue, SqlFailure, type SqlSession, type TlsMode } from './sqlTypes.js';

export type SqlServerAuth = { kind: 'sql'; username: string; password: string } | { kind: 'windows'; domain: string; username: string; password: string };

export type SqlServerSettings = {
  host: string;
  /** The TCP port; empty with a named instance, whose port the SQL Server Browser (UDP 1434) answers. */
  port?: number;
  instanceName?: string;
  database: string;
  auth: SqlServerAuth;
  /** require: TLS or no connection; prefer: TLS unless the server has none; disable: in the clear. */
  tls: TlsMode;
  /** Accept the server's certificate without checking it (SQL Server's own self-signed one, in a lab). */
  trustServerCertificate: boolean;
  customCa?: string;
  connectTimeoutMs: number;
  /** How long a statement may take to start answering before it is cancelled. */
  statementTimeoutMs: number;
};

const loginErrors = new Set([18452, 18456, 18470, 18486, 18487, 18488]);
const permissionErrors = new Set([229, 230, 262, 300, 916]);

/** The failure reason of a SQL Server error number or a tedious/network error, with what to fix. */
export function classifySqlServerError(error: unknown, target: string, serverError?: { number: number; message: string }): SqlFailure {
  if (error instanceof SqlFailure) return error;
  const failure = error as { code?: string; number?: number; message?: string; cause?: unknown };
  const number = failure.number ?? serverError?.number;
  const message = serverError?.message && failure.code === 'ELOGIN' ? serverError.message : (failure.message ?? String(error));
  if (number === 4060) return new SqlFailure('invalid_config', `${target}: ${message} (check the database name and that the login is a user of it)`);
  if (number !== undefined && loginErrors.has(number)) return new SqlFailure('unauthorized', `${target} rejected the sign-in: ${message}`);
  if (number !== undefined && permissionErrors.has(number)) return new SqlFailure('forbidden', `${target}: ${message} (grant the connection's login read access to it)`);
  if (failure.code === 'ELOGIN') return new SqlFailure('unauthorized', `${target} rejected the sign-in: ${message}`);
  if (failure.code === 'ETIMEOUT') return new SqlFailure('timeout', /request/i.test(message) ? `The query ran longer than its time limit and was cancelled on ${target}.` : `${target} did not answer in time.`);
  if (failure.code === 'EINSTLOOKUP') return new SqlFailure('invalid_config', `${target}: the SQL Server Browser did not name the instance's port (${message}); give the port instead.`);
  if (failure.code === 'EREQUEST' || number !== undefined) return new SqlFailure('protocol', `${target}: ${message}`);
  // tedious wraps socket errors (ESOCKET), and tries each address of a name in turn (an AggregateError of them all).
  let cause = failure.code === 'ESOCKET' && failure.cause ? failure.cause : error;
  if (cause instanceof AggregateError && cause.errors.length) cause = cause.errors[cause.errors.length - 1];
  const network = classifyNetworkError(cause, target);
  return new SqlFailure(network.ok ? 'protocol' : network.reason, network.ok ? message : network.detail);
}

function connectionConfig(settings: SqlServerSettings, address: string): ConnectionConfiguration {
  const authentication: ConnectionConfiguration['authentication'] = settings.auth.kind === 'windows'
    ? { type: 'ntlm', options: { domain: settings.auth.domain, userName: settings.auth.username, password: settings.auth.password } }
    : { type: 'default', options: { userName: settings.auth.username, password: settings.auth.password } };
  return {
    server: address,
    authentication,
    options: {
      ...(settings.instanceName && !settings.port ? { instanceName: settings.instanceName } : { port: settings.port ?? 1433 }),
      database: settings.database,
      encrypt: settings.tls !== 'disable',
      trustServerCertificate: settings.trustServerCertificate,
      // The certificate is checked against the name the user gave, though the socket goes to the checked address.
      serverName: settings.host,
      ...(settings.customCa && { cryptoCredentialsDetails: { ca: [...rootCertificates, settings.customCa] } }),
      connectTimeout: settings.connectTimeoutMs,
      requestTimeout: settings.statementTimeoutMs,
      // A refused login is not retried: tedious counts 4060 (database unavailable) as transient, as on Azure.
      maxRetriesOnTransientErrors: 0,
      appName: 'Cartograph',
      // datetime has no zone: it is read as UTC (what WSUS and SCCM store), the same on every Cartograph host.
      useUTC: true,
    },
  };
}

type PreloginAnswer = { encryptionString?: string };
type TlsNegotiation = { performTlsNegotiation: (prelogin: PreloginAnswer, signal: AbortSignal) => Promise<void> };

/**
 * tedious carries on in the clear when a server answers PRELOGIN with "encryption not supported", even when the
 * connection asked for TLS; MS-TDS says the client must then end the connection, and with tls "require" it does.
 */
function requireEncryption(connection: Connection, target: string): void {
  const internals = connection as unknown as TlsNegotiation;
  const negotiate = internals.performTlsNegotiation.bind(connection);
  internals.performTlsNegotiation = (prelogin, signal) => {
    if (prelogin.encryptionString !== 'ON' && prelogin.encryptionString !== 'REQ') {
      return Promise.reject(new SqlFailure('tls', `${target} does not support encryption (TLS): enable it on the server (a certificate for SQL Server), or set TLS to prefer or disable.`));
    }
    return negotiate(prelogin, signal);
  };
}

/** BIGINT (nullable or not) arrives as text; it becomes a number when that loses nothing. */
function cellValue(value: unknown, typeName: string | undefined): unknown {
  if ((typeName === 'BigInt' || typeName === 'IntN') && typeof value === 'string' && Number.isSafeInteger(Number(value))) return Number(value);
  return plainValue(value);
}

type Cell = { value: unknown; metadata: { colName: string; type: { name: string } } };

/** Opens a session whose statements run in one transaction that is always rolled back, so nothing it runs is kept. */
export async function openSqlServerSession(settings: SqlServerSettings, signal: AbortSignal, outbound?: OutboundPolicy): Promise<SqlSession> {
  const target = settings.instanceName && !settings.port ? `${settings.host}\\${settings.instanceName}` : `${settings.host}:${settings.port ?? 1433}`;
  let lastServerError: { number: number; message: string } | undefined;
  let connection: Connection;
  try {
    const address = outbound ? await checkDestination(settings.host, outbound) : settings.host;
    connection = new Connection(connectionConfig(settings, address));
    if (settings.tls === 'require') requireEncryption(connection, target);
    connection.on('errorMessage', (token: { number: number; message: string }) => {
      // A refused database (4060) is followed by the generic 18456: the first says what to fix.
      if (lastServerError?.number !== 4060) lastServerError = { number: token.number, message: token.message };
    });
    await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
  } catch (error) {
    throw classifySqlServerError(error, target, lastServerError);
  }
  connection.on('error', () => {});
  const onAbort = () => connection.close();
  signal.addEventListener('abort', onAbort, { once: true });

  const execute = (sql: string, onRow?: (cells: Cell[]) => void, onStart?: (request: Request) => void) =>
    new Promise<void>((resolve, reject) => {
      const request = new Request(sql, (error) => (error ? reject(classifySqlServerError(error, target)) : resolve()));
      if (onRow) request.on('row', onRow);
      onStart?.(request);
      connection.execSqlBatch(request);
    });

  // READ COMMITTED, not REPEATABLE READ: SQL Server would hold shared locks for the whole fetch and block the
  // application writing to its own database. XACT_ABORT ends the transaction on any error.
  try {
    await execute('SET XACT_ABORT ON; SET TRANSACTION ISOLATION LEVEL READ COMMITTED; BEGIN TRANSACTION');
  } catch (error) {
    signal.removeEventListener('abort', onAbort);
    connection.close();
    throw error;
  }
  return {
    async *rows(query, batchSize) {
      let columns: string[] = [];
      let types: (string | undefined)[] = [];
      let queued: Record<string, unknown>[] = [];
      let request: Request | null = null;
      let finished = false;
      let failure: unknown = null;
      let wake: (() => void) | null = null;
      const notify = () => {
        wake?.();
        wake = null;
      };
      const running = execute(query, (cells) => {
        if (!columns.length) {
          columns = uniqueHeaders(cells.map((cell) => cell.metadata.colName));
          types = cells.map((cell) => cell.metadata.type?.name);
        }
        queued.push(Object.fromEntries(columns.map((column, index) => [column, cellValue(cells[index].value, types[index])])));
        // Back-pressure: the socket stops being read until the batch is taken.
        if (queued.length >= batchSize) request?.pause();
        notify();
      }, (started) => {
        request = started;
      }).then(() => undefined, (error: unknown) => {
        failure = error;
      }).finally(() => {
        finished = true;
        notify();
      });
      try {
        for (;;) {
          if (queued.length >= batchSize || (finished && queued.length)) {
            const batch = queued.slice(0, batchSize);
            queued = queued.slice(batchSize);
            (request as Request | null)?.resume();
            yield { columns, rows: batch };
          } else if (finished) {
            break;
          } else {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        }
        if (failure) throw failure;
      } finally {
        // A consumer that stops early cancels the statement (an ATTENTION), so the session can run the next one.
        if (!finished) {
          (request as Request | null)?.resume();
          connection.cancel();
        }
        await running;
      }
    },
    async probe(query) {
      await execute(`SELECT TOP (0) * FROM (${query}) AS cartograph_probe`);
    },
    async close() {
      signal.removeEventListener('abort', onAbort);
      await execute('IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION').catch(() => {});
      connection.close();
    },
  };
}
