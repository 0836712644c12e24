import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/core/query/index.js';
import type { Database } from '../../src/server/db/database.js';
import { compileQuery } from '../../src/server/query/compileQuery.js';
import { expandSavedQueries } from '../../src/server/query/savedQueries.js';
import { engines, openScratchDatabase } from './harness.js';

const assets = {
  'ws-1': { Hostname: ['WS-1'], 'OS.Type': ['Windows'], Groups: ['edr', 'mdm'], AdapterCount: ['3'], LastSeen: ['2026-11-21T10:00:00.000Z'] },
  'ws-2': { Hostname: ['ws-2'], 'OS.Type': ['Windows'], Groups: ['mdm'], AdapterCount: ['1'], LastSeen: ['2026-10-01T10:00:00.000Z'] },
  'srv-1': {
    Hostname: ['srv-1'], 'OS.Type': ['Linux'], Category: ['Server'], AdapterCount: ['2'], LastSeen: ['2026-11-01T00:00:00.000Z'], 'InstalledSoftware.SoftwareName': ['openssl'],
    'OpenPorts.PortNumber': [22, 443], 'Specifics.qualys.os': ['Ubuntu 22.04 (jammy)'],
  },
  'odd%_1': { Hostname: ["odd%_1'; drop table assets; --"], Domain: ['a.b.example'] },
};

// Stored as snapshots store assets: entity fields in `fields`, raw vendor fields in `specifics`.
const split = (fields: Record<string, unknown[]>) => [
  Object.fromEntries(Object.entries(fields).filter(([field]) => !field.startsWith('Specifics.'))),
  Object.fromEntries(Object.entries(fields).filter(([field]) => field.startsWith('Specifics.'))),
];

describe.each(engines)('query compilation to SQL on %s', (engine) => {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openScratchDatabase(engine));
    await db.exec('create table assets (name text primary key, fields jsonb not null, specifics jsonb not null)');
    for (const [name, fields] of Object.entries(assets)) await db.query('insert into assets values ($1, $2, $3)', [name, ...split(fields).map((part) => JSON.stringify(part))]);
  });
  afterAll(() => close());

  const matching = async (text: string) => {
    const compiled = compileQuery(parseQuery(text), { firstParameter: 1, now: new Date('2026-11-22T12:00:00Z') });
    const rows = await db.query<{ name: string }>(`select name from assets where ${compiled.sql} order by name`, compiled.params);
    return rows.map((row) => row.name);
  };

  it.each([
    ['OS.Type = windows', ['ws-1', 'ws-2']],
    ['OS.Type = Windows AND NOT Groups = edr', ['ws-2']],
    ['Hostname = ws*', ['ws-1', 'ws-2']],
    ['Hostname = /^WS-\\d$/', ['ws-1']],
    ['Hostname = /^ws-\\d$/i', ['ws-1', 'ws-2']],
    ['InstalledSoftware.SoftwareName = *', ['srv-1']],
    ['InstalledSoftware.SoftwareName != *', ['odd%_1', 'ws-1', 'ws-2']],
    ['AdapterCount >= 2', ['srv-1', 'ws-1']],
    ['AdapterCount != 3', ['odd%_1', 'srv-1', 'ws-2']],
    ['LastSeen last now-15d/d', ['ws-1']],
    ['Category = Server AND NOT LastSeen last now-15d/d', ['srv-1']],
    ['LastSeen < 2026-10-15', ['ws-2']],
    ['Hostname = "odd%_1\'; drop table assets; --"', ['odd%_1']],
    ['Hostname = "odd%*"', ['odd%_1']],
    ['Hostname = "o%"', []],
    ['(OS.Type = Linux OR Groups = edr) AND AdapterCount > 2', ['ws-1']],
    ['OS.TYPE = windows', []],
    ['os.type = WINDOWS OR OS.Type = wINDOWS', ['ws-1', 'ws-2']],
    ['AdapterCount = 2', ['srv-1']],
    ['OpenPorts.PortNumber = "443"', ['srv-1']],
    ['OpenPorts.PortNumber = 443 AND OpenPorts.PortNumber < 100', ['srv-1']],
    ['Domain = "a.b.example"', ['odd%_1']],
    ['Domain = "a?b.example"', []],
    ['Domain = "A.B.*"', ['odd%_1']],
    ['Specifics.qualys.os = "ubuntu 22.04 (jammy)"', ['srv-1']],
    ['Specifics.qualys.os = *jammy*', ['srv-1']],
    ['Specifics.qualys.os != *jammy*', ['odd%_1', 'ws-1', 'ws-2']],
  ])('%s', async (text, expected) => {
    expect(await matching(text)).toEqual(expected);
  });

  it('expands saved queries and refuses cycles and missing ones', async () => {
    const saved: Record<number, string> = { 1: 'OS.Type = Windows', 2: 'Query is 1 AND NOT Groups = edr', 3: 'Query is 4', 4: 'Query is 3' };
    const load = async (id: number) => saved[id] ?? null;
    const expanded = await expandSavedQueries(parseQuery('Query is 2'), load);
    const compiled = compileQuery(expanded, { firstParameter: 1 });
    expect((await db.query<{ name: string }>(`select name from assets where ${compiled.sql}`, compiled.params)).map((row) => row.name)).toEqual(['ws-2']);
    await expect(expandSavedQueries(parseQuery('Query is 3'), load)).rejects.toMatchObject({ body: { query: ['Saved query 3 refers to itself (3 → 4 → 3).'] } });
    await expect(expandSavedQueries(parseQuery('Query is 9'), load)).rejects.toMatchObject({ body: { query: ['Saved query 9 does not exist.'] } });
  });
});
