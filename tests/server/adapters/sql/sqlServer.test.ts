// The SQL engine on Microsoft SQL Server. No SQL Server runs here: the TDS test server (tests/support/tdsServer.ts)
// speaks the protocol to the real driver (tedious) — the LOGIN7 password checked, SQL Server's error numbers, rows
// in the views' types, ATTENTION for a cancelled statement — and answers the statements of these tests.
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchedRecord } from '../../../../src/server/adapters/engine.js';
import { createSqlEngine } from '../../../../src/server/adapters/sql/sqlEngine.js';
import type { OutboundPolicy } from '../../../../src/server/outbound/guard.js';
import { loopbackAllowed } from '../../../support/outbound.js';
import { startTdsServer, type TdsAnswer, type TdsColumn, type TdsServer } from '../../../support/tdsServer.js';

const engine = createSqlEngine();
const password = 'Pässw0rd-für-SQL';
const assetColumns: TdsColumn[] = [
  { name: 'id', type: 'int' }, { name: 'Hostname', type: 'nvarchar' }, { name: 'ip', type: 'nvarchar' }, { name: 'serial', type: 'nvarchar' }, { name: 'big', type: 'bigint' },
  { name: 'small_big', type: 'bigint' }, { name: 'price', type: 'float' }, { name: 'retired', type: 'bit' }, { name: 'LastSeen', type: 'datetime' }, { name: 'uid', type: 'uniqueidentifier' },
];
const assets = Array.from({ length: 1234 }, (_, index) => {
  const id = index + 1;
  return [id, `host-${id}`, `10.0.${Math.floor(id / 250)}.${(id % 250) + 1}`, `SN${id}`, (9007199254740993n + BigInt(id)).toString(), id * 1000, id * 1.5, id % 10 === 0, new Date(Date.UTC(2026, 10, 1, 10, id % 60)).toISOString(), `0a1b2c3d-4e5f-4a6b-8c7d-${id.toString(16).padStart(12, '0')}`];
});
const people = [['jdoe', 'jane.doe@example.com', 'Jane Doe'], ['rroe', 'richard.roe@example.com', 'Richard Roe']];

/** What the test server answers: session statements, the two tables, a hanging statement and SQL Server's error 208. */
function answer(sql: string): TdsAnswer {
  if (/^\s*(set |if @@trancount)/i.test(sql)) return { statement: true };
  if (/waitfor delay/i.test(sql)) return { hang: true };
  if (/no_such_table/.test(sql)) return { error: { number: 208, message: "Invalid object name 'no_such_table'." } };
  const probe = /TOP \(0\)/.test(sql);
  if (/FROM assets/.test(sql)) return { columns: assetColumns, rows: probe ? [] : assets };
  if (/FROM people/.test(sql)) return { columns: [{ name: 'login', type: 'nvarchar' }, { name: 'mail', type: 'nvarchar' }, { name: 'DisplayName', type: 'nvarchar' }], rows: probe ? [] : people };
  return { error: { number: 102, message: `Incorrect syntax near '${sql.slice(0, 20)}'.` } };
}

let server: TdsServer;
let base: Record<string, unknown>;

beforeAll(async () => {
  server = await startTdsServer({ accounts: [{ username: 'cartograph_ro', password }], databases: ['cmdb'], answer });
  base = { dialect: 'sqlserver', host: '127.0.0.1', port: server.port, database: 'cmdb', auth: { auth_type: 'basic', username: 'cartograph_ro', password }, tls_mode: 'disable' };
});

afterAll(async () => {
  await server.close();
});

const context = (config: Record<string, unknown>, outbound: OutboundPolicy = loopbackAllowed) => ({ adapter: 'sqladapter', config, signal: AbortSignal.timeout(30_000), warn: () => {}, outbound });

async function fetchAll(config: Record<string, unknown>): Promise<FetchedRecord[]> {
  const records: FetchedRecord[] = [];
  for await (const record of engine.fetch(context(config))) records.push(record);
  return records;
}

const check = (config: Record<string, unknown>, outbound?: OutboundPolicy) => engine.test(context({ ...base, queries: [{ entity: 'device', query: 'SELECT name FROM assets' }], ...config }, outbound));

describe('the SQL engine on SQL Server (TDS test server)', () => {
  it('streams every row in batches, typed columns mapped to Cartograph fields, in a transaction that is rolled back', async () => {
    const before = server.batches.length;
    const records = await fetchAll({ ...base, queries: [{ entity: 'device', query: 'SELECT id, name AS Hostname, ip, serial, big, small_big, price, retired, seen AS LastSeen, uid FROM assets' }, { entity: 'user', query: 'SELECT login, mail, full_name AS DisplayName FROM people' }] });
    expect(records.filter((record) => record.entity === 'device')).toHaveLength(1234);
    expect(records[0].fields).toEqual({ Hostname: 'host-1', IpAddresses: ['10.0.0.2'], SerialNumber: 'SN1', LastSeen: '2026-11-01T10:01:00.000Z' });
    // BIGINT stays exact (text) when a number would round it; uniqueidentifier is SQL Server's upper-case text.
    expect(records[0].raw).toMatchObject({ id: 1, big: '9007199254740994', small_big: 1000, price: 1.5, retired: false, uid: '0A1B2C3D-4E5F-4A6B-8C7D-000000000001' });
    expect((records[9].raw as { retired: boolean }).retired).toBe(true);
    expect(records.slice(-2).map((record) => record.fields)).toEqual([
      { Username: 'jdoe', Email: 'jane.doe@example.com', DisplayName: 'Jane Doe' },
      { Username: 'rroe', Email: 'richard.roe@example.com', DisplayName: 'Richard Roe' },
    ]);
    const batches = server.batches.slice(before).filter((sql) => !/^set ansi_nulls/.test(sql));
    expect(batches[0]).toMatch(/BEGIN TRANSACTION$/);
    expect(batches.at(-1)).toBe('IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION');
  });

  it("checks the login's password and names each failure the way SQL Server numbers it", async () => {
    expect(await check({})).toMatchObject({ ok: true });
    expect(server.logins.at(-1)).toMatchObject({ login: 'cartograph_ro', accepted: true });
    expect(await check({ auth: { auth_type: 'basic', username: 'cartograph_ro', password: `${password}!` } })).toMatchObject({ ok: false, reason: 'unauthorized', detail: expect.stringContaining("Login failed for user 'cartograph_ro'.") });
    expect(await check({ auth: { auth_type: 'basic', username: 'someone_else', password } })).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(await check({ database: 'SUSDB' })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('Cannot open database "SUSDB"') });
    expect(await check({ queries: [{ entity: 'device', query: 'SELECT name FROM no_such_table' }] })).toMatchObject({ ok: false, reason: 'protocol', detail: expect.stringContaining("Invalid object name 'no_such_table'") });
  });

  it('refuses to sign in in the clear when TLS is required, and signs in unencrypted when TLS is only preferred', async () => {
    const logins = server.logins.length;
    expect(await check({ tls_mode: 'require' })).toMatchObject({ ok: false, reason: 'tls', detail: expect.stringContaining('does not support encryption') });
    // The password never left: the client stopped after PRELOGIN, before LOGIN7.
    expect(server.logins).toHaveLength(logins);
    expect(await check({ tls_mode: 'prefer' })).toMatchObject({ ok: true });
    expect(server.logins.at(-1)).toMatchObject({ accepted: true, clientWantedEncryption: true });
  });

  it('cancels a statement that has not answered within its time limit', async () => {
    await expect(fetchAll({ ...base, statement_timeout_seconds: 1, queries: [{ entity: 'device', query: "SELECT 1 AS slept WAITFOR DELAY '00:00:05'" }] })).rejects.toThrow(/longer than its time limit/);
  });

  it('refuses a statement that is not a single read before it reaches SQL Server', async () => {
    const before = server.batches.length;
    for (const [query, reason] of [
      ['DELETE FROM assets', /starts with DELETE/],
      ['SELECT * INTO #copy FROM assets', /SELECT … INTO/],
      ['SELECT * FROM assets WITH (UPDLOCK)', /locking table hint/],
      ["SELECT * FROM OPENROWSET(BULK 'C:\\secrets.txt', SINGLE_CLOB) AS f", /OPENROWSET/],
      ['SELECT [name FROM assets', /bracket/],
    ] as const) {
      expect(await check({ queries: [{ entity: 'device', query }] }), query).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringMatching(reason) });
    }
    expect(server.batches.length).toBe(before);
    // A semicolon or a keyword inside a bracketed name is a name, not a second statement.
    expect(await check({ queries: [{ entity: 'device', query: 'SELECT name AS [Hostname; DELETE] FROM assets' }] })).toMatchObject({ ok: true });
  });

  it('names network failures, and connects only where the outbound guard allows', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket.on('error', () => {})));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      expect(await check({ host: 'no-such-host.invalid' })).toMatchObject({ ok: false, reason: 'dns' });
      expect(await check({ port: closedPort })).toMatchObject({ ok: false, reason: 'refused' });
      expect(await check({ port: silentPort, timeout_seconds: 1 })).toMatchObject({ ok: false, reason: 'timeout' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
    const logins = server.logins.length;
    expect(await check({}, { loopback: false, privateRanges: true })).toMatchObject({ ok: false, reason: 'refused', detail: expect.stringMatching(/loopback/i) });
    expect(server.logins).toHaveLength(logins);
  });
});
