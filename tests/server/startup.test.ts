import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.js';
import { loadMigrations, migrate } from '../../src/server/db/migrate.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { startCartograph } from '../../src/server/server.js';
import { createScratchPostgres } from './harness.js';
import { postgresTestsRun } from '../support/postgresRequired.js';

type Started = { child: ChildProcess; baseUrl: string; output: () => string };

/** Starts `src/server/main.ts` as `npm start` does and waits for its "ready" line. */
async function startProcess(environment: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'warn', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const address = /ready at (http:\/\/[\d.:]+)/.exec(output);
      if (address) {
        clearInterval(timer);
        resolve(address[1]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`exited with ${code}: ${output}`));
    });
  });
  return { child, baseUrl, output: () => output };
}

async function stopProcess(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  return exited;
}

async function post(url: string, body: object, token?: string) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('first start, restart and shutdown of the real process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a generated, already expired administrator password once, keeps data across a restart and stops cleanly on SIGTERM', async () => {
    const first = await startProcess({ CARTOGRAPH_DATA_DIR: dataDir });
    const generated = /one-time password: (\S+)/.exec(first.output())?.[1] as string;
    const signIn = await post(`${first.baseUrl}/api/token`, { username: 'admin', password: generated });
    expect(signIn.body).toMatchObject({ password_expired: true });
    const changed = await post(`${first.baseUrl}/api/password`, { old_password: generated, new_password: 'my own long passphrase' }, signIn.body.access);
    expect(changed.status).toBe(200);
    expect((await post(`${first.baseUrl}/users/users`, { username: 'kept.user' }, changed.body.access)).status).toBe(201);
    expect(await stopProcess(first)).toBe(0);
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);

    const second = await startProcess({ CARTOGRAPH_DATA_DIR: dataDir });
    try {
      const again = await post(`${second.baseUrl}/api/token`, { username: 'admin', password: 'my own long passphrase' });
      const users = await fetch(`${second.baseUrl}/users/users`, { headers: { authorization: `Bearer ${again.body.access}` } }).then((response) => response.json());
      expect(users.results.map((user: { username: string }) => user.username)).toEqual(['admin', 'kept.user']);
      expect(second.output()).not.toMatch(/one-time password/);
    } finally {
      expect(await stopProcess(second)).toBe(0);
    }
  }, 180_000); // Starts the real server twice, each from a cold `node --import tsx`: a minute on a busy machine.
});

describe('migrations', () => {
  it('roll back a failing migration completely and record nothing of it', async () => {
    const db = await openPgliteDatabase(null);
    try {
      const broken = [{ version: 9001, name: '9001_broken', sql: 'create table half_done (id int); select * from no_such_table;' }];
      await expect(migrate(db, broken)).rejects.toThrow(/9001_broken failed/);
      expect(await db.query("select to_regclass('half_done') as table_name")).toEqual([{ table_name: null }]);
      expect(await db.query('select * from schema_migrations')).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it.runIf(postgresTestsRun())('let two processes start together on one PostgreSQL without racing', async () => {
    const scratch = await createScratchPostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-race-'));
    try {
      const config = { ...readConfig({}), dataDir, adminPassword: 'race admin passphrase', secretKey: 'race key' };
      const [left, right] = await Promise.all([
        startCartograph(config, { logger: false, database: await openPostgresDatabase(scratch.url, 2) }),
        startCartograph(config, { logger: false, database: await openPostgresDatabase(scratch.url, 2) }),
      ]);
      expect([left.firstAdministrator, right.firstAdministrator].filter(Boolean)).toHaveLength(1);
      expect(await left.context.db.query('select count(*)::int as count from companies')).toEqual([{ count: 1 }]);
      expect(await left.context.db.query('select count(*)::int as count from schema_migrations')).toEqual([{ count: loadMigrations().length }]);
      await Promise.all([left.close(), right.close()]);
    } finally {
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('logs', () => {
  it('never contain passwords, tokens or secrets', async () => {
    const lines: string[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-logs-'));
    const running = await startCartograph(
      { ...readConfig({}), dataDir, adminPassword: 'logged admin passphrase', secretKey: 'log key', logLevel: 'trace' },
      { database: await openPgliteDatabase(null), logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      const signIn = await running.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password: 'logged admin passphrase' } });
      const access = signIn.json().access as string;
      await running.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${access}` } });
      running.app.log.info({ connection: { password: 'hunter2-secret', token: 'abc-token-value' } }, 'connection saved');
      const output = lines.join('');
      expect(output).toContain('connection saved');
      for (const secret of ['logged admin passphrase', access, 'hunter2-secret', 'abc-token-value']) expect(output).not.toContain(secret);
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(postgresTestsRun())('restart on PostgreSQL', () => {
  it('keeps users across a restart', async () => {
    const scratch = await createScratchPostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-pg-restart-'));
    const config = { ...readConfig({}), dataDir, adminPassword: 'pg admin passphrase', secretKey: 'pg key' };
    try {
      const first = await startCartograph(config, { logger: false, database: await openPostgresDatabase(scratch.url, 2) });
      const signIn = await first.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password: 'pg admin passphrase' } });
      await first.app.inject({ method: 'POST', url: '/users/users', headers: { authorization: `Bearer ${signIn.json().access}` }, payload: { username: 'pg.kept' } });
      await first.close();
      const second = await startCartograph(config, { logger: false, database: await openPostgresDatabase(scratch.url, 2) });
      expect(second.firstAdministrator).toBeNull();
      expect(await second.context.db.query('select username from users order by id')).toEqual([{ username: 'admin' }, { username: 'pg.kept' }]);
      await second.close();
    } finally {
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
