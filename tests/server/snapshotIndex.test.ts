import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MergedAsset } from '../../src/server/discovery/mergeAssets.js';
import { writeAssets } from '../../src/server/discovery/snapshotWriter.js';
import { buildSnapshotIndex } from '../../src/server/inventory/snapshotIndex.js';
import { planSnapshotQuery } from '../../src/server/inventory/search.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// The typed index and the JSONB documents must answer every query alike: the same assets, in the same order,
// with the same count. Each query of the corpus runs both ways over one snapshot of varied devices.

/** A small deterministic generator, so a failure names the same fleet every run. */
function* counter(seed: number) {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    // The high bits: the low bits of this generator repeat with short periods.
    yield state >>> 16;
  }
}

const longRandom = counter(11);
const longText = Array.from({ length: 6_000 }, () => String.fromCharCode(33 + (longRandom.next().value! % 90))).join('');

function fleet(size: number): MergedAsset[] {
  const random = counter(7);
  const pick = <T>(choices: T[]): T => choices[random.next().value! % choices.length];
  const maybe = <T>(value: T): T[] => (random.next().value! % 5 === 0 ? [] : [value]);
  return Array.from({ length: size }, (_, index) => {
    const number = String(index).padStart(3, '0');
    const fields: Record<string, unknown[]> = {
      Hostname: [...maybe(pick([`WS-${number}`, `ws-${number}`, `srv_%${number}`, `odd'${number}`, `Ünï-${number}`, `web-${number}.corp`, 443, true, false, 'TRUE', 'true'])), ...(index % 7 === 0 ? [`alias-${number}`] : [])],
      'OS.Type': maybe(pick(['Windows', 'windows', 'Linux', 'macOS', 'WINDOWS'])),
      'OS.Build': maybe(pick(['19045', '22631'])),
      AdapterCount: [pick([1, 2, 3, 4, '2', '3', 'n/a', 2.5])],
      LastSeen: [...maybe(`2026-${pick(['09', '10', '11'])}-${pick(['01', '08', '15', '21', '23'])}T${pick(['00', '09', '23'])}:00:00.000Z`), ...(index % 9 === 0 ? ['2026-11-08'] : [])],
      IpAddresses: [`10.0.${index % 4}.${index}`, ...(index % 3 === 0 ? [`192.168.1.${index % 50}`] : []), ...(index % 5 === 0 ? [`fe80::${index.toString(16)}`, 'not-an-ip'] : [])],
      SerialNumber: maybe(pick([`SN_${number}`, `sn-${number}`, '0', 'N/A'])),
      Tags: index % 4 === 0 ? ['prod', pick(['pci', 'PCI', 'dmz'])] : [],
      Adapters: pick([['crowdstrike'], ['crowdstrike', 'intune'], ['qualys', 'servicenow', 'intune'], ['csvfile']]),
      DeviceManufacturer: maybe(pick(['Dell Inc.', 'dell inc.', 'Lenovo', 'HP'])),
      'InstalledSoftware.SoftwareName': index % 2 ? ['openssl', pick(['nginx', 'Chrome'])] : [],
    };
    // Two devices whose host name and last-seen text run to 6,000 characters that hardly compress, sharing their
    // first 600: an ordering key must fit a B-tree entry without failing the publish, and order alike both ways.
    if (index >= size - 2) fields.Hostname = fields.LastSeen = [`${longText.slice(0, 600)}${index}${longText.slice(600)}`];
    const present = Object.fromEntries(Object.entries(fields).filter(([, values]) => values.length));
    return { id: `asset-${number}`, fields: present as MergedAsset['fields'], specifics: { 'Specifics.qualys.os': [pick(['Ubuntu 22.04 (jammy)', 'Windows 11'])] } as MergedAsset['specifics'], preferred: {}, recordKeys: [`record-${number}`], adapters: [], reasons: [] };
  });
}

// Queries the typed columns answer.
const typed = [
  '', 'OS.Type = windows', 'Hostname = true', 'Hostname = TRUE', 'Hostname = false', 'Hostname != true', 'Hostname = True AND OS.Type = windows', 'OS.Type = Windows AND NOT Tags = pci', 'Hostname = ws*', 'Hostname = "WS-00*"', 'Hostname = *corp', 'Hostname = "srv_%*"',
  'Hostname = "srv_%0*"', 'Hostname = 44*', 'Hostname = tr*', 'Hostname = *43', 'Hostname = *ue', 'Hostname = "odd\'001"', 'Hostname = "o%"', 'Hostname = *', 'Hostname != *', 'NOT Hostname = *', 'Hostname != ws*',
  'AdapterCount >= 2', 'AdapterCount > 2', 'AdapterCount < 2', 'AdapterCount <= 2', 'AdapterCount = 2', 'AdapterCount != 3', 'AdapterCount = 2.5',
  'LastSeen last now-15d/d', 'LastSeen last now-60d', 'LastSeen < 2026-10-15', 'LastSeen >= "2026-11-08"', 'LastSeen > 2026-11-08T00:00:00.000Z', 'LastSeen = *',
  'IpAddresses = "10.0.1.*"', 'IpAddresses = 192.168.1.3', 'Tags = prod AND (Tags = pci OR Tags = dmz)', 'Adapters = intune', 'Adapters != crowdstrike',
  'SerialNumber = "SN_0*"', 'SerialNumber = "sn_0*"', 'DeviceManufacturer = "DELL INC."',
  '(OS.Type = Linux OR Tags = prod) AND AdapterCount > 2 AND LastSeen last now-90d',
  // Free text over the devices' `x-search` fields, lists and contains.
  'ws-00', '"WEB-01"', 'corp', 'ws-01 AND OS.Type = windows', 'NOT sn', 'Tags in [pci, dmz]', 'Hostname contains "-01"', 'SerialNumber exists', 'NOT SerialNumber exists',
  'AdapterCount in [1, 3]',
  // Subnets and ranges, IPv4 and IPv6, from the addresses' `inet` column; alone, in lists, negated, as free text.
  'IpAddresses = 10.0.1.0/24', 'IpAddresses != 10.0.0.0/16', 'IpAddresses in [192.168.1.0/28, 10.0.2.0/24]', 'IpAddresses = 10.0.0.1-10.0.0.40', '192.168.1.16/28',
  'IpAddresses = fe80::/120', 'IpAddresses = fe80::1-fe80::20 AND OS.Type = windows', 'IpAddresses = FE80::/64', 'IpAddresses = 10.0.0.0/8 AND NOT IpAddresses = 10.0.3.0/24',
  'IpAddresses in [10.0.0.5, 10.0.1.0/30, fe80::a]', '10.0.2.10-10.0.2.99 OR ws-01', 'IpAddresses = 0.0.0.0/0', 'IpAddresses = ::/0', 'IpAddresses contains "168.1."',
];
// Queries only the documents answer (regular expressions, numbers written as text, letters beyond ASCII, fields
// without a column): the index must step aside for them.
const documentsOnly = [
  'Hostname = /^WS-\\d+$/', 'Hostname = /^ws/i', 'AdapterCount = "2"', 'SerialNumber = 0', 'Hostname = "ünï-*"', 'OS.Build = 19045', 'LastSeen = 2026-11-08*',
  'Hostname = 443', 'AdapterCount = *', 'IpAddresses = 10.0.1.0/24 AND Hostname = /^ws/i', 'InstalledSoftware.SoftwareName = chrome', 'Specifics.qualys.os = *jammy*', 'OS.Type = windows AND Specifics.qualys.os != *jammy*', 'Hostname > m',
];
// Queries both paths refuse alike, naming the field (a typo never reads as "0 devices").
const refusedQueries = ['Colour = red', 'OS.Type = windows AND Hostnme = ws', 'IpAddresses = 10.0.0.0/33', 'LastSeen = yesterday', 'Tags in [pci] AND Colur in [x]', 'Colour contains x', 'Colour exists', 'AdapterCount = many', 'Hostname last now-7d', 'AdapterCount in [1, two]'];
const orderings = [[], [{ field: 'Hostname' }], [{ field: 'Hostname', order: 'desc' }], [{ field: 'LastSeen', order: 'desc' }, { field: 'Hostname' }], [{ field: 'AdapterCount' }]];

describe.each(engines)('the snapshot index on %s', (engine) => {
  let server: TestServer;
  let discoveryId: number;
  const search = async (query: string, ordering: object[]) => {
    const answer = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query, ordering, fields: ['Hostname'], size: 1000 } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { count: answer.body.count, ids: answer.body.results.map((asset: { PrimaryKey: string[] }) => asset.PrimaryKey[0]) };
  };
  const everyAnswer = async () => {
    const answers = new Map<string, unknown>();
    for (const query of [...typed, ...documentsOnly]) for (const ordering of orderings) answers.set(`${query} | ${JSON.stringify(ordering)}`, await search(query, ordering));
    for (const query of refusedQueries) {
      const answer = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query } });
      answers.set(query, { status: answer.status, body: answer.body });
    }
    return answers;
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
    const { db } = server.context;
    [{ id: discoveryId }] = await db.query<{ id: number }>("insert into discoveries (company_id, status) values (1, 'running') returning id");
    await writeAssets(db, discoveryId, 'device', fleet(240));
    await buildSnapshotIndex(db, discoveryId);
    await db.query("update discoveries set status = 'done', end_time = now() where id = $1", [discoveryId]);
  });
  afterAll(() => server.stop());

  it('reads the typed columns for every query that has a typed form, and the documents for the others', async () => {
    const plan = (query: string) => planSnapshotQuery(server.context.db, { companyId: 1, userId: null }, discoveryId, 'device', query, [{ field: 'Hostname' }]);
    for (const query of typed) expect((await plan(query)).table, query).toBe('snapshot_index');
    for (const query of documentsOnly) expect((await plan(query)).table, query).toBe('snapshot_assets');
    // Lists ordered by a field without an ordering column read the documents too.
    for (const field of ['OS.Build', 'SerialNumber']) expect((await planSnapshotQuery(server.context.db, { companyId: 1, userId: null }, discoveryId, 'device', 'OS.Type = windows', [{ field }])).table).toBe('snapshot_assets');
    // A snapshot indexed before addresses had their `inet` column answers its subnets from the documents.
    const { db } = server.context;
    await db.query("update discoveries set indexed_fields = indexed_fields - 'device.addresses' where id = $1", [discoveryId]);
    expect((await plan('IpAddresses = 10.0.1.0/24')).table).toBe('snapshot_assets');
    expect((await plan('IpAddresses = "10.0.1.*"')).table).toBe('snapshot_index');
    await db.query(`update discoveries set indexed_fields = indexed_fields || '{"device.addresses": ["IpAddresses"]}' where id = $1`, [discoveryId]);
  });

  it('finds a host by a fragment and its devices by subnet, and names typos rather than answering none', async () => {
    expect((await search('10.0.1.1', [])).ids).toContain('asset-001');
    expect((await search('ws-0', [])).count).toBeGreaterThan(0);
    expect((await search('IpAddresses = 10.0.1.0/24', [])).count).toBe(60);
    expect((await search('IpAddresses = 10.0.1.0/24', [])).count).toBe((await search('IpAddresses = "10.0.1.*"', [])).count);
    expect((await search('IpAddresses = fe80::/64', [])).count).toBe(48);
    const refused = async (query: string, path = '/devices/devices') => {
      const answer = await server.request('POST', path, { token: server.adminToken, body: { query } });
      expect(answer.status, query).toBe(400);
      return answer.body.query[0];
    };
    expect(await refused('Colour = red')).toBe('Unknown field "Colour". (at character 1)');
    expect(await refused('Categroy = Server')).toMatch(/Did you mean Category\?/);
    expect(await refused('OS.Type = Windows AND Hostnme = ws')).toMatch(/^Unknown field "Hostnme". Did you mean Hostname\?/);
    expect(await refused('Software.Nmae = chrome')).toMatch(/Software has no field "Nmae". Did you mean Software.Name/);
    expect(await refused('Hostname = x', '/appinventory/applications')).toMatch(/Hostname is a device field; here try Device.Hostname/);
    expect(await refused('LastSeen = yesterday')).toMatch(/^Last seen takes a date/);
    expect(await refused('OS.Type = Linux AND AdapterCount >= many')).toMatch(/^Adapter count takes a number; "many" is not one \(at character 21\)/);
    expect(await refused('Hostname last now-7d')).toMatch(/^Hostname is not a date/);
    expect(await refused('IpAddresses = 10.61.0.0/33')).toMatch(/an IPv4 prefix is at most \/32/);
  });

  it('answers every query of the corpus, in every order, exactly as the documents do', async () => {
    const { db } = server.context;
    // Every device fits the covering index, so counts read it (with its guard) rather than the rows.
    const countWhere = async () => (await planSnapshotQuery(db, { companyId: 1, userId: null }, discoveryId, 'device', 'OS.Type = windows')).countWhere;
    expect(await countWhere()).toMatch(/octet_length\(ix_os_type\) <= 256/);
    // A snapshot covered by an index of other fields (before a schema change) has no guard to add.
    const [{ covering }] = await db.query<{ covering: string }>("select indexed_fields->>'device.covered' as covering from discoveries where id = $1", [discoveryId]);
    await db.query(`update discoveries set indexed_fields = indexed_fields || '{"device.covered": "ix_covered_device_0"}' where id = $1`, [discoveryId]);
    expect(await countWhere()).not.toMatch(/octet_length/);
    await db.query('update discoveries set indexed_fields = indexed_fields || jsonb_build_object($2::text, $3::text) where id = $1', [discoveryId, 'device.covered', covering]);
    const fromIndex = await everyAnswer();
    // The same snapshot as one published before the index existed: everything is read from the documents.
    const [{ held }] = await db.query<{ held: object }>('select indexed_fields as held from discoveries where id = $1', [discoveryId]);
    await db.query("update discoveries set indexed_fields = '{}' where id = $1", [discoveryId]);
    const fromDocuments = await everyAnswer();
    await db.query('update discoveries set indexed_fields = $2 where id = $1', [discoveryId, JSON.stringify(held)]);
    for (const [key, answer] of fromDocuments) expect(fromIndex.get(key), key).toEqual(answer);
    for (const query of refusedQueries) expect((fromIndex.get(query) as { status: number }).status, query).toBe(400);
    // Text sorts without regard to case, both ways: "ws-…" and "WS-…" are one run, in their numbers' order.
    const hostnames = async () => {
      const answer = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { ordering: [{ field: 'Hostname' }], fields: ['Hostname'], size: 1000 } });
      return answer.body.results.map((asset: { Hostname?: unknown[] }) => String(asset.Hostname?.[0] ?? ''));
    };
    for (const indexedFields of [JSON.stringify(held), '{}']) {
      await db.query('update discoveries set indexed_fields = $2 where id = $1', [discoveryId, indexedFields]);
      const names: string[] = await hostnames();
      const run = names.map((name, position) => [name, position] as const).filter(([name]) => /^ws-/i.test(name));
      expect(new Set(run.map(([name]) => name.slice(0, 2))).size, indexedFields).toBe(2);
      expect(run.at(-1)![1] - run[0][1] + 1, indexedFields).toBe(run.length);
      const lowered = run.map(([name]) => name.toLowerCase());
      expect(lowered, indexedFields).toEqual([...lowered].sort());
    }
    await db.query('update discoveries set indexed_fields = $2 where id = $1', [discoveryId, JSON.stringify(held)]);
    // The corpus is not trivial: most queries match some devices but not all.
    const counts = [...fromDocuments.values()].map((answer) => (answer as { count: number }).count);
    expect(counts.filter((count) => count > 0 && count < 240).length).toBeGreaterThan(counts.length / 2);
  }, 240_000); // hundreds of queries on each path: about a minute on a quiet machine, more beside other test files
});
