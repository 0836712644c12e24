import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { AdapterRuntime } from '../../src/server/adapters/runtime.js';
import type { TxtResolver } from '../../src/server/context.js';
import { readConfig, type ServerConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { startCartograph, type RunningCartograph } from '../../src/server/server.js';
import { openMigratedPglite, postgresTemplate } from '../support/databaseTemplates.js';
import { postgresTestsRun, requirePostgresUrl } from '../support/postgresRequired.js';

export type Engine = 'pglite' | 'postgresql';
export const adminPassword = 'first admin passphrase';
/** The password of every user the tests create. */
export const userPassword = 'tr0ubadour & three horses';

/**
 * Server tests run on PGlite always, and on PostgreSQL too when DATABASE_URL names a server. In CI they always run on
 * PostgreSQL as well: without DATABASE_URL there, its half fails instead of vanishing (see tests/support/postgresRequired.ts).
 */
export const engines: Engine[] = postgresTestsRun() ? ['pglite', 'postgresql'] : ['pglite'];

/** A fresh PostgreSQL database for one test file, empty or `migrated`, dropped again by `drop`. */
export async function createScratchPostgres(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = requirePostgresUrl();
  const name = `cartograph_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // Another checkout's run (other migrations, another template) drops the templates it does not know: build ours
    // again when it vanished between finding it and copying it.
    for (let attempt = 1; ; attempt += 1) {
      const template = options.migrated ? ` template ${await postgresTemplate(serverUrl)}` : '';
      try {
        await admin.query(`create database ${name}${template}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '3D000' || attempt === 3) throw error;
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** An empty database of the engine for tests below the server (in memory on PGlite); `close` also drops PostgreSQL's. */
export async function openScratchDatabase(engine: Engine): Promise<{ db: Database; close: () => Promise<void> }> {
  if (engine === 'pglite') {
    const db = await openPgliteDatabase(null);
    return { db, close: () => db.close() };
  }
  const scratch = await createScratchPostgres();
  const db = await openPostgresDatabase(scratch.url, 2);
  return { db, close: async () => { await db.close(); await scratch.drop(); } };
}

export type Answer = { status: number; body: any; headers: Record<string, unknown> };

export type TestServer = RunningCartograph & {
  engine: Engine;
  config: ServerConfig;
  request: (method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Answer>;
  signIn: (username: string, password: string) => Promise<string>;
  /** The provider company's administrator, signed in. */
  adminToken: string;
  stop: () => Promise<void>;
};

/** Starts Cartograph in-process on a fresh database of the given engine; requests go through Fastify's inject. */
export async function startTestServer(
  engine: Engine,
  overrides: Partial<ServerConfig> = {},
  options: { adapters?: AdapterRuntime; dataDir?: string; resolveTxt?: TxtResolver } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cartograph-test-'));
  const scratch = engine === 'postgresql' ? await createScratchPostgres({ migrated: true }) : null;
  const config: ServerConfig = {
    ...readConfig({}),
    dataDir,
    adminPassword,
    secretKey: 'test secret key',
    signInRateLimitPerMinute: 10_000,
    passwordExpiryDays: 0,
    // The replay servers and receivers of the tests listen on 127.0.0.1: the test install allows loopback (the
    // provider's choice); tests/server/outbound/outboundPolicy.test.ts proves the default refuses it.
    outboundAllowLoopback: true,
    ...overrides,
  };
  const database: Database = scratch ? await openPostgresDatabase(scratch.url, 4) : options.dataDir ? await openPgliteDatabase(`${dataDir}/pglite`) : await openMigratedPglite();
  const running = await startCartograph(config, { logger: false, database, adapters: options.adapters, resolveTxt: options.resolveTxt });
  const request: TestServer['request'] = async (method, url, options = {}) => {
    const response = await running.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(options.token && { authorization: `Bearer ${options.token}` }), ...options.headers },
      ...(options.body !== undefined && { payload: options.body as object }),
    });
    let body: unknown = response.body;
    try {
      body = response.body ? JSON.parse(response.body) : null;
    } catch {
      // Not JSON (the console's HTML, for example): keep the text.
    }
    return { status: response.statusCode, body, headers: response.headers };
  };
  const signIn = async (username: string, password: string) => {
    const answer = await request('POST', '/api/token', { body: { username, password } });
    if (answer.status !== 200 || !answer.body.access) throw new Error(`Sign-in of ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.access as string;
  };
  const stop = async () => {
    await running.close();
    await scratch?.drop();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return { ...running, engine, config, request, signIn, adminToken: await signIn('admin', adminPassword), stop };
}

/** Creates a user with the given built-in or custom group names in the caller's company and signs them in. */
export async function createUserWithGroups(server: TestServer, token: string, username: string, groupNames: string[], company?: number): Promise<{ id: number; token: string }> {
  const groups = await server.request('GET', '/users/groups?size=1000', { token });
  const groupIds = company === undefined ? groups.body.results.filter((group: { name: string }) => groupNames.includes(group.name)).map((group: { id: number }) => group.id) : [];
  const password = userPassword;
  const created = await server.request('POST', '/users/users', { token, body: { username, password, group_ids: groupIds, ...(company !== undefined && { company }) } });
  if (created.status !== 201) throw new Error(`Creating ${username} failed: ${JSON.stringify(created.body)}`);
  return { id: created.body.id, token: await server.signIn(username, password) };
}
