// The sql-views engine: adapters whose vendor keeps its data in SQL Server and documents views over it (WSUS's
// SUSDB PUBLIC_VIEWS) declare their streams in views.json; this engine signs in, pages each stream by its key and maps
// the rows. Unlike the SQL database adapter, the queries are the adapter's, not the user's.
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { openSqlServerSession, type SqlServerAuth, type SqlServerSettings } from './sqlServerSession.js';
import { SqlFailure, type SqlSession } from './sqlTypes.js';
import { loadViewsManifest, pageQuery, recordFromView, type ViewsManifest, type ViewsStream } from './viewsManifest.js';

/** The connection form of a sql-views adapter (schemas/adapters/wsus/connection.schema.json is an example). */
type ViewsConfig = {
  host?: string;
  port?: number;
  instance_name?: string;
  database?: string;
  auth?: { auth_type?: 'sql_login' | 'windows'; username?: string; password?: string };
  encrypt?: boolean;
  trust_server_certificate?: boolean;
  custom_ca?: string;
  page_size?: number;
  timeout_seconds?: number;
  statement_timeout_seconds?: number;
} & Record<string, unknown>;

const defaultPageSize = 1000;

function manifestOf(slug: string): ViewsManifest {
  const manifest = loadViewsManifest(slug);
  if (!manifest) throw new SqlFailure('invalid_config', `The ${slug} adapter declares no views (views.json).`);
  return manifest;
}

/** The sign-in the form describes: a SQL login, or a Windows account written DOMAIN\user (signed in through NTLM). */
function authOf(config: ViewsConfig): SqlServerAuth {
  const { auth_type: kind, username = '', password = '' } = config.auth ?? {};
  if (!username.trim() || !password) throw new SqlFailure('invalid_config', 'The user name and password are required.');
  if (kind !== 'windows') return { kind: 'sql', username: username.trim(), password };
  const [domain, account] = username.trim().split(/\\(.*)/s);
  if (!domain || !account) throw new SqlFailure('invalid_config', `Give the Windows account as DOMAIN\\user (not "${username.trim()}").`);
  return { kind: 'windows', domain, username: account, password };
}

function settingsOf(config: ViewsConfig, manifest: ViewsManifest): SqlServerSettings {
  if (!config.host?.trim()) throw new SqlFailure('invalid_config', 'The SQL Server host is missing.');
  return {
    host: config.host.trim(),
    port: config.port,
    instanceName: config.instance_name?.trim() || undefined,
    database: config.database?.trim() || manifest.database,
    auth: authOf(config),
    tls: config.encrypt === false ? 'disable' : 'require',
    trustServerCertificate: config.trust_server_certificate === true,
    customCa: config.custom_ca || undefined,
    connectTimeoutMs: (config.timeout_seconds ?? 60) * 1000,
    statementTimeoutMs: (config.statement_timeout_seconds ?? 300) * 1000,
  };
}

/** A stream runs unless the form's switch that names it (`enabled_by`) is off. */
const enabledStreams = (manifest: ViewsManifest, config: ViewsConfig) => manifest.streams.filter((stream) => !stream.enabled_by || config[stream.enabled_by] !== false);

/**
 * Every row of one stream, a page at a time: each page asks for the rows after the last key of the one before, so no
 * statement runs long and rows added meanwhile are neither skipped nor repeated. A short page is the last.
 */
async function* streamRows(session: SqlSession, stream: ViewsStream, pageSize: number): AsyncGenerator<Record<string, unknown>> {
  let after: unknown[] | null = null;
  for (;;) {
    let count = 0;
    let last: Record<string, unknown> | null = null;
    for await (const batch of session.rows(pageQuery(stream, after, pageSize), pageSize)) {
      for (const row of batch.rows) {
        count += 1;
        last = row;
        yield row;
      }
    }
    if (!last || count < pageSize) return;
    const missing = stream.key.find((column) => !(column in last!));
    if (missing) throw new Error(`The ${stream.name} query has no column ${missing}, its declared key.`);
    after = stream.key.map((column) => last![column]);
  }
}

export async function* fetchViews(context: FetchContext): AsyncGenerator<FetchedRecord> {
  const manifest = manifestOf(context.adapter);
  const config = context.config as ViewsConfig;
  const settings = settingsOf(config, manifest);
  const pageSize = Math.max(1, Math.trunc(config.page_size ?? defaultPageSize));
  const session = await openSqlServerSession(settings, context.signal, context.outbound);
  try {
    for (const stream of enabledStreams(manifest, config)) {
      for await (const row of streamRows(session, stream, pageSize)) yield recordFromView(row, stream);
    }
  } finally {
    await session.close();
  }
}

/** Signs in and checks that every enabled stream's query compiles and its views may be read (no rows fetched). */
export async function testViews(context: Omit<FetchContext, 'warn'>): Promise<ConnectivityResult> {
  let session: SqlSession | null = null;
  try {
    const manifest = manifestOf(context.adapter);
    const config = context.config as ViewsConfig;
    const settings = settingsOf(config, manifest);
    session = await openSqlServerSession(settings, context.signal, context.outbound);
    const streams = enabledStreams(manifest, config);
    for (const stream of streams) await session.probe(stream.query);
    return { ok: true, detail: `Signed in to ${settings.database} on ${settings.host}; the views of ${streams.map((stream) => stream.name).join(' and ')} are readable.` };
  } catch (error) {
    if (error instanceof SqlFailure) return { ok: false, reason: error.reason, detail: error.message };
    return { ok: false, reason: 'protocol', detail: (error as Error).message };
  } finally {
    await session?.close();
  }
}

export const sqlViewsEngine: AdapterEngine = {
  name: 'sql-views',
  test: (context) => testViews(context),
  fetch: (context) => fetchViews(context),
};
