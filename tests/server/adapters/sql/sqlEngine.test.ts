import { randomBytes } from 'node:crypto';
import { loopbackAllowed } from '../../../support/outbound.js';
import { createServer, type Server } from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchedRecord } from '../../../../src/server/adapters/engine.js';
import { createSqlEngine } from '../../../../src/server/adapters/sql/sqlEngine.js';

const engine = createSqlEngine();
const suffix = randomBytes(4).toString('hex');

async function fetchAll(config: Record<string, unknown>): Promise<{ records: FetchedRecord[]; warnings: string[] }> {
  const records: FetchedRecord[] = [];
  const warnings: string[] = [];
  for await (const record of engine.fetch({ adapter: 'sqladapter', config, signal: AbortSignal.timeout(30_000), warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
  return { records, warnings };
}

const check = (config: Record<string, unknown>) => engine.test({ adapter: 'sqladapter', config, signal: AbortSignal.timeout(30_000), outbound: loopbackAllowed });

/** A TCP listener that accepts connections and never answers: a database that hangs. */
async function silentListener(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

async function closedPort(): Promise<number> {
  const listener = await silentListener();
  await listener.close();
  return listener.port;
}

/** The failures both dialects must name the same way: an unknown host, a closed port, a server that never answers. */
async function expectNetworkReasons(base: Record<string, unknown>): Promise<void> {
  const probe = { ...base, queries: [{ entity: 'device', query: 'SELECT 1' }] };
  expect(await check({ ...probe, host: 'no-such-host.invalid' })).toMatchObject({ ok: false, reason: 'dns' });
  expect(await check({ ...probe, port: await closedPort() })).toMatchObject({ ok: false, reason: 'refused' });
  const silent = await silentListener();
  try {
    expect(await check({ ...probe, port: silent.port, timeout_seconds: 1 })).toMatchObject({ ok: false, reason: 'timeout' });
  } finally {
    await silent.close();
  }
}

describe('the SQL engine on PostgreSQL', () => {
  const database = `cartograph_sql_${suffix}`;
  const base = { dialect: 'postgresql', host: '127.0.0.1', port: 5432, database, auth: { auth_type: 'basic', username: 'postgres', password: 'unused' }, tls_mode: 'prefer' };

  beforeAll(async () => {
    const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    const client = new pg.Client({ host: '127.0.0.1', user: 'postgres', database });
    await client.connect();
    await client.query(`create table assets (id bigint primary key, name text, ips inet[], serial text, big bigint, price numeric(12,2), retired boolean, seen timestamptz, tags text[], extra jsonb)`);
    await client.query(`insert into assets select i, 'host-' || i, array[('10.0.' || (i / 250) || '.' || (i % 250 + 1))::inet], 'SN' || i, 9007199254740993 + i, i * 1.5, i % 10 = 0,
      timestamptz '2026-11-01 10:00:00+00' + i * interval '1 minute', array['t' || (i % 3)], jsonb_build_object('rack', i % 7) from generate_series(1, 1234) i`);
    await client.query(`create function write_asset() returns int language sql as 'insert into assets (id) values (999999) returning 1'`);
    await client.query(`create table people (login text, mail text, full_name text)`);
    await client.query(`insert into people values ('jdoe', 'jane.doe@example.com', 'Jane Doe'), ('rroe', 'richard.roe@example.com', 'Richard Roe')`);
    await client.end();
  });

  afterAll(async () => {
    const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('streams every row of one query per inventory, typed columns mapped to Cartograph fields', async () => {
    const { records } = await fetchAll({
      ...base,
      queries: [
        { entity: 'device', query: 'SELECT id, name AS "Hostname", ips AS "IpAddresses", serial, big, price, retired, seen AS "LastSeen", tags AS "Tags", extra FROM assets ORDER BY id' },
        { entity: 'user', query: 'SELECT login, mail, full_name AS "DisplayName" FROM people ORDER BY login;' },
      ],
    });
    expect(records.filter((record) => record.entity === 'device')).toHaveLength(1234);
    const first = records[0];
    expect(first.fields).toEqual({ Hostname: 'host-1', IpAddresses: ['10.0.0.2'], SerialNumber: 'SN1', LastSeen: new Date('2026-11-01T10:01:00Z').toISOString(), Tags: ['t1'] });
    expect(first.raw).toMatchObject({ id: 1, big: '9007199254740994', price: 1.5, retired: false, extra: { rack: 1 } });
    expect((records[9].raw as { retired: boolean }).retired).toBe(true);
    expect(records.slice(-2).map((record) => [record.entity, record.fields])).toEqual([
      ['user', { Username: 'jdoe', Email: 'jane.doe@example.com', DisplayName: 'Jane Doe' }],
      ['user', { Username: 'rroe', Email: 'richard.roe@example.com', DisplayName: 'Richard Roe' }],
    ]);
  });

  it('maps rows to installed software and vulnerability findings, as each query of the connection chooses', async () => {
    const client = new pg.Client({ host: '127.0.0.1', user: 'postgres', database });
    await client.connect();
    await client.query(`create table installs (host text, publisher text, product text, version text, installed date)`);
    await client.query(`insert into installs values ('host-1', 'Google LLC', 'Google Chrome', '120.0.6099.130', date '2023-12-21'), ('host-2', 'The OpenSSL Project', 'openssl', '3.0.11-1~deb12u2', null)`);
    await client.query(`create table findings (asset text, cve text, cvss numeric(3,1), severity text, port int, exploitable boolean, first_found timestamptz)`);
    await client.query(`insert into findings values ('host-1', 'CVE-2023-7024', 8.8, 'High', null, true, timestamptz '2023-12-21 09:14:12+00')`);
    await client.end();
    const { records } = await fetchAll({
      ...base,
      queries: [
        { entity: 'software', query: 'SELECT host AS "Hostname", publisher, product, version, installed::text AS "InstallDate" FROM installs ORDER BY host' },
        { entity: 'vulnerability', query: 'SELECT asset, cve, cvss, severity, port, exploitable AS "ExploitKnown", first_found FROM findings' },
      ],
    });
    expect(records.map((record) => [record.entity, record.fields])).toEqual([
      ['software', { Hostname: 'host-1', SoftwareVendor: 'Google LLC', SoftwareName: 'Google Chrome', SoftwareVersion: '120.0.6099.130', InstallDate: '2023-12-21' }],
      ['software', { Hostname: 'host-2', SoftwareVendor: 'The OpenSSL Project', SoftwareName: 'openssl', SoftwareVersion: '3.0.11-1~deb12u2' }],
      ['vulnerability', { Hostname: 'host-1', CveId: ['CVE-2023-7024'], CvssScore: 8.8, Severity: 'High', ExploitKnown: true, FirstSeen: '2023-12-21T09:14:12.000Z' }],
    ]);
  });

  it('runs queries in a read-only transaction, so a function that writes fails and changes nothing', async () => {
    await expect(fetchAll({ ...base, queries: [{ entity: 'device', query: 'SELECT write_asset() AS wrote' }] })).rejects.toThrow(/read-only transaction/);
    const { records } = await fetchAll({ ...base, queries: [{ entity: 'device', query: 'SELECT count(*) AS n FROM assets' }] });
    expect(records[0].raw).toEqual({ n: 1234 });
  });

  it('refuses a statement that is not a single read before it reaches the database', async () => {
    expect(await check({ ...base, queries: [{ entity: 'device', query: 'DELETE FROM assets' }] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringMatching(/starts with DELETE/) });
    expect(await check({ ...base, queries: [{ entity: 'device', query: "SELECT ';' AS x; DROP TABLE assets" }] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringMatching(/only one statement/) });
    expect(await check({ ...base, queries: [{ entity: 'device', query: 'SELECT 1' }, { entity: 'device', query: 'SELECT 2' }] })).toMatchObject({ ok: false, detail: expect.stringMatching(/Two queries feed the device inventory/) });
  });

  it('stops a query that runs past its time limit', async () => {
    await expect(fetchAll({ ...base, statement_timeout_seconds: 1, queries: [{ entity: 'device', query: 'SELECT pg_sleep(5) AS slept' }] })).rejects.toThrow(/longer than its time limit/);
  });

  it('answers the connectivity check with success or the precise reason', async () => {
    expect(await check({ ...base, queries: [{ entity: 'device', query: 'SELECT name FROM assets' }] })).toMatchObject({ ok: true });
    expect(await check({ ...base, queries: [{ entity: 'device', query: 'SELECT name FROM no_such_table' }] })).toMatchObject({ ok: false, reason: 'protocol', detail: expect.stringMatching(/no_such_table/) });
    expect(await check({ ...base, auth: { auth_type: 'basic', username: `nobody_${suffix}`, password: 'x' }, queries: [{ entity: 'device', query: 'SELECT 1' }] })).toMatchObject({ ok: false, reason: 'unauthorized' });
    await expectNetworkReasons(base);
  });
});

describe('the SQL engine on MariaDB', () => {
  const table = `cartograph_sql_${suffix}`;
  const base = { dialect: 'mysql', host: '127.0.0.1', port: 3306, database: 'test', auth: { auth_type: 'basic', username: 'root', password: '' }, tls_mode: 'prefer' };
  let admin: mysql.Connection;

  beforeAll(async () => {
    admin = await mysql.createConnection({ host: '127.0.0.1', user: 'root', database: 'test', multipleStatements: false });
    await admin.query(`create table ${table} (id bigint primary key, hostname varchar(64), mac varchar(32), big bigint unsigned, managed tinyint(1), seen datetime, cost decimal(10,2), extra json)`);
    const rows = Array.from({ length: 1234 }, (_, index) => [index + 1, `mdb-${index + 1}`, `00:11:22:33:${String((index >> 8) % 100).padStart(2, '0')}:${String(index % 100).padStart(2, '0')}`, 18446744073709551000n, index % 2, new Date(Date.UTC(2026, 10, 1, 0, index % 60)), (index + 1) / 4, JSON.stringify({ rack: index % 7 })]);
    await admin.query(`insert into ${table} values ?`, [rows]);
    await admin.query(`create function ${table}_write() returns int modifies sql data begin insert into ${table} (id) values (999999); return 1; end`);
  });

  afterAll(async () => {
    await admin.query(`drop function if exists ${table}_write`);
    await admin.query(`drop table if exists ${table}`);
    await admin.end();
  });

  it('streams every row with typed columns mapped to Cartograph fields', async () => {
    const { records } = await fetchAll({ ...base, queries: [{ entity: 'device', query: `SELECT id, hostname, mac, big, managed, seen AS LastSeen, cost, extra FROM ${table} ORDER BY id` }] });
    expect(records).toHaveLength(1234);
    expect(records[0].fields).toEqual({ Hostname: 'mdb-1', MacAddresses: ['00:11:22:33:00:00'], LastSeen: new Date(Date.UTC(2026, 10, 1, 0, 0)).toISOString() });
    expect(records[0].raw).toMatchObject({ id: 1, big: '18446744073709551000', managed: false, cost: 0.25, extra: { rack: 0 } });
    expect((records[1].raw as { managed: boolean }).managed).toBe(true);
  });

  it('runs queries in a read-only transaction, so a function that writes fails and changes nothing', async () => {
    await expect(fetchAll({ ...base, queries: [{ entity: 'device', query: `SELECT ${table}_write() AS wrote` }] })).rejects.toThrow(/READ ONLY/i);
    const [[{ n }]] = (await admin.query(`select count(*) as n from ${table}`)) as unknown as [[{ n: number }]];
    expect(Number(n)).toBe(1234);
  });

  it('stops a query that runs past its time limit', async () => {
    await expect(fetchAll({ ...base, statement_timeout_seconds: 1, queries: [{ entity: 'device', query: `SELECT SLEEP(5) AS slept FROM ${table} LIMIT 1` }] })).rejects.toThrow(/longer than its time limit/);
  });

  it('answers the connectivity check with success or the precise reason', async () => {
    expect(await check({ ...base, queries: [{ entity: 'device', query: `SELECT hostname FROM ${table}` }] })).toMatchObject({ ok: true });
    expect(await check({ ...base, auth: { auth_type: 'basic', username: 'root', password: 'wrong password' }, queries: [{ entity: 'device', query: 'SELECT 1' }] })).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(await check({ ...base, database: `missing_${suffix}`, queries: [{ entity: 'device', query: 'SELECT 1' }] })).toMatchObject({ ok: false, reason: 'invalid_config' });
    expect(await check({ ...base, queries: [{ entity: 'device', query: `SELECT 1 INTO OUTFILE '/tmp/${table}'` }] })).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringMatching(/OUTFILE/) });
    await expectNetworkReasons(base);
  });
});
