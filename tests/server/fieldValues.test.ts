import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshotIndex } from '../../src/server/inventory/snapshotIndex.js';
import { publishSnapshot, type KnownAsset } from './dashboardsFixtures.js';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

const device = (id: string, os: string, hostname: string): KnownAsset => ({ entity: 'device', id, fields: { Hostname: [hostname], 'OS.Type': [os] } });

describe.each(engines)('value suggestions of an inventory field on %s', (engine) => {
  let server: TestServer;
  let token: string;
  const values = (query: string, as = token) => server.request('GET', `/devices/values?${query}`, { token: as });
  beforeAll(async () => {
    server = await startTestServer(engine);
    token = server.adminToken;
    // Indexed, as a discovery publishes it: typed text is narrowed through the index (company B's below is not).
    const discoveryId = await publishSnapshot(server.context.db, 1, new Date(), 0, [
      device('d1', 'Windows', 'lt-0017'), device('d2', 'Windows', 'lt-0018'), device('d3', 'Linux', 'srv-01'),
      device('d4', 'Windows', 'lt-0019'), device('d5', 'macOS', 'mac-01'), device('d6', 'Linux', 'srv-02'),
    ]);
    await buildSnapshotIndex(server.context.db, discoveryId);
  });
  afterAll(() => server.stop());

  it('answers the most frequent values first, and only those holding the typed text', async () => {
    expect(await values('field=OS.Type')).toMatchObject({ status: 200, body: { field: 'OS.Type', values: [{ value: 'Windows', count: 3 }, { value: 'Linux', count: 2 }, { value: 'macOS', count: 1 }] } });
    expect((await values('field=OS.Type&search=IN')).body.values).toEqual([{ value: 'Windows', count: 3 }, { value: 'Linux', count: 2 }]);
    expect((await values('field=Hostname&search=lt-001')).body.values.map((row: { value: string }) => row.value)).toEqual(['lt-0017', 'lt-0018', 'lt-0019']);
    // Narrowed through the index's lower-cased column, answered from the documents as written.
    expect((await values('field=Hostname&search=LT-0018')).body.values).toEqual([{ value: 'lt-0018', count: 1 }]);
    expect((await values('field=OS.Type&search=mac')).body.values).toEqual([{ value: 'macOS', count: 1 }]);
    // Wildcards typed by the user are text, not patterns.
    expect((await values('field=Hostname&search=%25')).body.values).toEqual([]);
  });

  it('names an unknown field, and answers only readers of the inventory, each from their own company', async () => {
    expect(await values('field=Colour')).toMatchObject({ status: 400, body: { field: [expect.stringContaining('Unknown field "Colour"')] } });
    expect(await values('')).toMatchObject({ status: 400 });
    const nobody = await createUserWithGroups(server, token, `no-devices-${engine}`, []);
    expect((await values('field=OS.Type', nobody.token)).status).toBe(403);

    const companyB = (await server.request('POST', '/companies/companies', { token, body: { name: `Values B ${engine}` } })).body.id;
    await server.request('POST', `/companies/companies/${companyB}/administrators`, { token, body: { username: `values-b-${engine}`, password: userPassword } });
    const tokenB = await server.signIn(`values-b-${engine}`, userPassword);
    // B has no snapshot of its own: A's values are not B's answer.
    expect((await values('field=OS.Type', tokenB)).status).toBe(404);
    await publishSnapshot(server.context.db, companyB, new Date(), 0, [device('b1', 'FreeBSD', 'fw-01')]);
    expect((await values('field=OS.Type', tokenB)).body.values).toEqual([{ value: 'FreeBSD', count: 1 }]);
    const ownSnapshot = (await values('field=OS.Type')).body.index_id;
    expect((await values(`field=OS.Type&index_id=${ownSnapshot}`, tokenB)).status).toBe(404);
  });
});
