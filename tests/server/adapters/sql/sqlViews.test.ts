// The sql-views engine (WSUS's SUSDB views): keyset pages built from a stream's key, rows mapped by views.json, and
// the WSUS adapter end to end against the TDS test server — here a server that really filters and orders by the key,
// so a page that skipped or repeated a row would show — signed in with a Windows account through NTLMv2.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchedRecord } from '../../../../src/server/adapters/engine.js';
import { sqlViewsEngine } from '../../../../src/server/adapters/sql/sqlViewsEngine.js';
import { loadViewsManifest, pageQuery, recordFromView, sqlLiteral, type ViewsStream } from '../../../../src/server/adapters/sql/viewsManifest.js';
import { loopbackAllowed } from '../../../support/outbound.js';
import { startTdsServer, type TdsAnswer, type TdsServer } from '../../../support/tdsServer.js';

const stream: ViewsStream = { name: 'things', entity: 'device', query: 'SELECT a, b FROM t', key: ['a', 'b'], mapping: {} };

describe('keyset pages of a declared stream', () => {
  it('starts at the first row, then continues after the last key of the page before', () => {
    expect(pageQuery(stream, null, 500)).toBe('SELECT TOP (500) * FROM (SELECT a, b FROM t) AS page ORDER BY [a], [b]');
    expect(pageQuery(stream, ["O'Brien", 7], 2)).toBe("SELECT TOP (2) * FROM (SELECT a, b FROM t) AS page WHERE [a] > N'O''Brien' OR ([a] = N'O''Brien' AND [b] > 7) ORDER BY [a], [b]");
    expect(pageQuery({ ...stream, key: ['a'] }, ['x'], 10)).toBe("SELECT TOP (10) * FROM (SELECT a, b FROM t) AS page WHERE [a] > N'x' ORDER BY [a]");
  });

  it('refuses a key value it cannot write as a literal', () => {
    expect(() => sqlLiteral(null)).toThrow(/non-NULL/);
    expect(() => sqlLiteral(Number.NaN)).toThrow();
    expect(sqlLiteral(-3)).toBe('-3');
  });

  it('maps columns to fields: text trimmed, dates as ISO text, lists split or wrapped, empty values left out', () => {
    const mapped = recordFromView(
      { id: ' 42 ', groups: 'Pilot\nWorkstations\n', ip: '10.0.0.1', seen: new Date('2024-05-21T07:20:10Z'), model: '  ', none: null },
      { ...stream, mapping: { AgentId: 'id', Groups: { column: 'groups', split: '\n' }, IpAddresses: 'ip', LastSeen: 'seen', DeviceModel: 'model', Domain: 'none' } },
    );
    expect(mapped.fields).toEqual({ AgentId: '42', Groups: ['Pilot', 'Workstations'], IpAddresses: ['10.0.0.1'], LastSeen: '2024-05-21T07:20:10.000Z' });
  });

  it('reads every views manifest of the catalogue, each key among its query text', () => {
    const slugs = readdirSync('schemas/adapters').filter((slug) => !slug.includes('.') && loadViewsManifest(slug));
    expect(slugs).toContain('wsus');
    for (const slug of slugs) for (const declared of loadViewsManifest(slug)!.streams) for (const column of declared.key) expect(declared.query, `${slug} ${declared.name}`).toContain(column);
  });
});

// Five computers, paged two at a time: the server answers TOP (n) after the key the query names, in key order.
const computers = ['1a', '2b', '3c', '4d', '5e'].map((id, index) => [`${id}000000-0000-4000-8000-00000000000${index}`, `ws-0${index}.corp.example.com`, `10.0.0.${index + 1}`]);

function answer(sql: string): TdsAnswer {
  if (/^\s*(set |if @@trancount)/i.test(sql)) return { statement: true };
  if (!sql.includes('FROM PUBLIC_VIEWS.vComputerTarget AS ct')) return { error: { number: 229, message: "The SELECT permission was denied on the object 'vUpdateInstallationInfoBasic', database 'SUSDB', schema 'PUBLIC_VIEWS'." } };
  const top = Number(/TOP \((\d+)\)/.exec(sql)![1]);
  const after = /\[ComputerTargetId\] > N'([^']*)'/.exec(sql)?.[1] ?? '';
  const rows = computers.filter(([id]) => id > after).slice(0, top);
  return { columns: [{ name: 'ComputerTargetId', type: 'nvarchar' }, { name: 'FullDomainName', type: 'nvarchar' }, { name: 'IPAddress', type: 'nvarchar' }], rows };
}

describe('the WSUS adapter on the sql-views engine', () => {
  let server: TdsServer;
  let config: Record<string, unknown>;
  const context = (changes: Record<string, unknown> = {}) => ({ adapter: 'wsus', config: { ...config, ...changes }, signal: AbortSignal.timeout(30_000), warn: () => {}, outbound: loopbackAllowed });

  beforeAll(async () => {
    server = await startTdsServer({ accounts: [{ domain: 'CORP', username: 'svc-cartograph', password: 'Winter-2024!' }], databases: ['SUSDB'], answer });
    config = { host: '127.0.0.1', port: server.port, auth: { auth_type: 'windows', username: 'CORP\\svc-cartograph', password: 'Winter-2024!' }, encrypt: false, page_size: 2, fetch_missing_updates: false };
  });

  afterAll(async () => {
    await server.close();
  });

  it('signs in with a Windows account through NTLM and reads every computer once, page after page', async () => {
    const before = server.batches.length;
    const records: FetchedRecord[] = [];
    for await (const record of sqlViewsEngine.fetch(context())) records.push(record);
    expect(server.logins.at(-1)).toMatchObject({ login: 'CORP\\svc-cartograph', accepted: true });
    expect(records.map((record) => record.fields.AgentId)).toEqual(computers.map(([id]) => id));
    expect(records[0].fields).toMatchObject({ Hostname: 'ws-00.corp.example.com', IpAddresses: ['10.0.0.1'] });
    // Pages of 2, 2 and 1: the short page is the last; the missing updates are switched off, so never asked for.
    const queries = server.batches.slice(before).filter((sql) => sql.startsWith('SELECT TOP'));
    expect(queries).toHaveLength(3);
    expect(queries[2]).toContain(`WHERE [ComputerTargetId] > N'${computers[3][0]}'`);
    expect(server.batches.slice(before).some((sql) => sql.includes('vUpdateInstallationInfoBasic'))).toBe(false);
  });

  it("refuses a wrong Windows password, an account without its domain and a view the login may not read", async () => {
    expect(await sqlViewsEngine.test(context({ fetch_missing_updates: false }))).toMatchObject({ ok: true, detail: expect.stringContaining('Signed in to SUSDB') });
    expect(await sqlViewsEngine.test(context({ auth: { auth_type: 'windows', username: 'CORP\\svc-cartograph', password: 'Summer-2024!' } }))).toMatchObject({ ok: false, reason: 'unauthorized', detail: expect.stringContaining("Login failed for user 'CORP\\svc-cartograph'.") });
    expect(await sqlViewsEngine.test(context({ auth: { auth_type: 'windows', username: 'svc-cartograph', password: 'Winter-2024!' } }))).toMatchObject({ ok: false, reason: 'invalid_config', detail: expect.stringContaining('DOMAIN\\user') });
    expect(await sqlViewsEngine.test(context({ fetch_missing_updates: true }))).toMatchObject({ ok: false, reason: 'forbidden', detail: expect.stringContaining('SELECT permission was denied') });
  });
});
