// Replays a sql-views adapter's fixture (WSUS): the TDS test server on 127.0.0.1 signs in the account the fixture's
// config names (a wrong password fails with error 18456), answers the session's own statements (SET, BEGIN/ROLLBACK
// TRANSACTION), and answers every other SQL batch with the first unused exchange whose `request` texts it all contains
// (once all are used, the last match repeats); a batch no exchange answers is recorded and fails. The engine connects
// with encryption off: the test server answers PRELOGIN that it has none. The conformance test and `check` use it.
import type { AdapterEngine, ConnectivityResult, FetchedRecord } from '../../src/server/adapters/engine.js';
import { loadViewsManifest } from '../../src/server/adapters/sql/viewsManifest.js';
import { loopbackAllowed, type ReplayResult } from './fixtureReplay.js';
import { startTdsServer, type TdsAccount, type TdsAnswer, type TdsColumn, type TdsMessage, type TdsServer } from './tdsServer.js';

/** The answer to one SQL batch: the columns and rows of a result, or SQL Server's error. */
export type TdsExchange = { request: string[]; columns: TdsColumn[]; rows: unknown[][] } | { request: string[]; error: TdsMessage };

export type TdsFixture = {
  description: string;
  /** `tds`: the exchanges are SQL batches (texts each must contain) and their results. */
  protocol: 'tds';
  config: Record<string, unknown>;
  exchanges: TdsExchange[];
  expected: { count: number; records: { entity: string; fields: Record<string, unknown> }[] };
  /** A documented failure: the config changes that bring it and the connectivity reason it must give. */
  failure?: { config: Record<string, unknown>; reason: string };
};

// What a client sends around its queries: session options and the transaction it reads in.
const sessionStatement = /^\s*(set\s|begin\s+tran|if\s+@@trancount|rollback|commit)/i;

/** The account the fixture's config signs in with is the one the server accepts (DOMAIN\user for Windows). */
function accountOf(config: Record<string, unknown>): TdsAccount {
  const auth = (config.auth ?? {}) as { auth_type?: string; username?: string; password?: string };
  const username = auth.username ?? '';
  if (auth.auth_type !== 'windows') return { username, password: auth.password ?? '' };
  const [domain, account] = username.split(/\\(.*)/s);
  return { domain, username: account ?? '', password: auth.password ?? '' };
}

async function startTdsReplay(slug: string, fixture: TdsFixture): Promise<{ server: TdsServer; unmatched: string[] }> {
  const used = new Set<number>();
  const unmatched: string[] = [];
  const database = (fixture.config.database as string | undefined) ?? loadViewsManifest(slug)?.database ?? 'master';
  const answer = (sql: string): TdsAnswer => {
    if (sessionStatement.test(sql)) return { statement: true };
    const matches = fixture.exchanges.flatMap((exchange, index) => (exchange.request.every((text) => sql.includes(text)) ? [index] : []));
    const chosen = matches.find((index) => !used.has(index)) ?? matches[matches.length - 1];
    if (chosen === undefined) {
      unmatched.push(sql.slice(0, 300));
      return { error: { number: 50000, message: 'No replay exchange answers this statement.', class: 16 } };
    }
    used.add(chosen);
    const exchange = fixture.exchanges[chosen];
    return 'error' in exchange ? { error: exchange.error } : { columns: exchange.columns, rows: exchange.rows };
  };
  const server = await startTdsServer({ accounts: [accountOf(fixture.config)], databases: [database], answer });
  return { server, unmatched };
}

const replayTimeoutMs = 20_000;

/** The fixture's config pointed at the test server, unencrypted, with `changes` merged in (objects one level deep). */
function replayConfig(fixture: TdsFixture, server: TdsServer, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...fixture.config, host: server.host, port: server.port, instance_name: undefined, encrypt: false };
  for (const [name, value] of Object.entries(changes)) {
    merged[name] = value && typeof value === 'object' && !Array.isArray(value) ? { ...(merged[name] as object), ...value } : value;
  }
  return merged;
}

/** Fetches through `engine` against the fixture's exchanges; a failing fetch is reported, not thrown. */
export async function replayTdsFixture(slug: string, fixture: TdsFixture, engine: AdapterEngine): Promise<ReplayResult> {
  const { server, unmatched } = await startTdsReplay(slug, fixture);
  const warnings: string[] = [];
  const records: FetchedRecord[] = [];
  try {
    for await (const record of engine.fetch({ adapter: slug, config: replayConfig(fixture, server), signal: AbortSignal.timeout(replayTimeoutMs), warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
    return { records, warnings, unmatched };
  } catch (error) {
    return { records, warnings, unmatched, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await server.close();
  }
}

/** The engine's connectivity check against a fresh replay, with the fixture's config changed by `changes`. */
export async function replayTdsConnectivityCheck(slug: string, fixture: TdsFixture, engine: AdapterEngine, changes?: Record<string, unknown>): Promise<ConnectivityResult> {
  const { server } = await startTdsReplay(slug, fixture);
  try {
    return await engine.test({ adapter: slug, config: replayConfig(fixture, server, changes), signal: AbortSignal.timeout(replayTimeoutMs), outbound: loopbackAllowed });
  } finally {
    await server.close();
  }
}
