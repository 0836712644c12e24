import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from './harness.js';

describe.each(engines)('saved queries by inventory on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.stop());

  it('lists only the queries of the inventory asked for, and refuses an unknown inventory', async () => {
    const token = server.adminToken;
    for (const [name, type] of [['Windows hosts', 'device'], ['Admins', 'user'], ['Stale devices', 'device']]) {
      expect(await server.request('POST', '/queries/queries', { token, body: { name, text: 'Hostname = *', type } })).toMatchObject({ status: 201 });
    }
    const devices = await server.request('GET', '/queries/queries?type=device&ordering=name', { token });
    expect(devices.body).toMatchObject({ count: 2, results: [{ name: 'Stale devices' }, { name: 'Windows hosts' }] });
    expect((await server.request('GET', '/queries/queries?type=user', { token })).body.results.map((query: { name: string }) => query.name)).toEqual(['Admins']);
    expect((await server.request('GET', '/queries/queries', { token })).body.count).toBe(3);
    expect(await server.request('GET', '/queries/queries?type=printer', { token })).toMatchObject({ status: 400, body: { type: [expect.any(String)] } });
  });

  it('keeps the saved queries of the certificate, service and license inventories apart', async () => {
    const token = server.adminToken;
    const saved = [['Expiring this month', 'certificate', 'ExpiryStatus = "Expires within 30 days"'], ['SSH daemons', 'service', 'Name = sshd'], ['Over-used', 'license', 'OverUse > 0']];
    for (const [name, type, text] of saved) {
      expect(await server.request('POST', '/queries/queries', { token, body: { name, text, type } }), type).toMatchObject({ status: 201 });
    }
    for (const [name, type, text] of saved) {
      expect((await server.request('GET', `/queries/queries?type=${type}`, { token })).body, type).toMatchObject({ count: 1, results: [{ name, text, type }] });
    }
  });
});
