import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from './harness.js';

describe.each(engines)('the generic resource layer (saved queries) on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    token = server.adminToken;
  });
  afterAll(() => server.stop());

  it('creates, reads, patches, replaces and deletes a document validated by its schema', async () => {
    const created = await server.request('POST', '/queries/queries', { token, body: { id: 999, name: 'No EDR', text: 'NOT Groups = edr', created_at: '2000-01-01T00:00:00Z' } });
    expect(created).toMatchObject({ status: 201, body: { name: 'No EDR', text: 'NOT Groups = edr', type: 'device', tags: [] } });
    expect(created.body.id).not.toBe(999);
    expect(created.body.created_at).not.toBe('2000-01-01T00:00:00Z');
    const url = `/queries/queries/${created.body.id}`;
    expect((await server.request('PATCH', url, { token, body: { tags: ['edr'] } })).body).toMatchObject({ name: 'No EDR', tags: ['edr'] });
    const replaced = await server.request('PUT', url, { token, body: { name: 'Stale servers', text: 'Category = Server' } });
    expect(replaced.body).toMatchObject({ name: 'Stale servers', text: 'Category = Server', tags: [] });
    expect(await server.request('PUT', url, { token, body: { name: 'Only a name' } })).toMatchObject({ status: 400, body: { text: ['This field is required.'] } });
    expect((await server.request('DELETE', url, { token })).status).toBe(204);
    expect((await server.request('GET', url, { token })).status).toBe(404);
  });

  it('rejects a duplicate name, wrong types and unknown fields with field errors', async () => {
    await server.request('POST', '/queries/queries', { token, body: { name: 'Unique', text: 'Hostname = a' } });
    expect(await server.request('POST', '/queries/queries', { token, body: { name: 'UNIQUE', text: 'Hostname = b' } })).toMatchObject({ status: 400, body: { name: ['A saved query with this name already exists.'] } });
    const wrong = await server.request('POST', '/queries/queries', { token, body: { name: 5, text: 'b', type: 'planet', extra: 1 } });
    expect(wrong).toMatchObject({ status: 400, body: { name: ['Not a valid string.'], type: ['This is not a valid choice.'], extra: ['Unknown field.'] } });
  });

  it('searches the declared fields and orders by any property', async () => {
    for (const name of ['Alpha', 'Bravo', 'Charlie']) await server.request('POST', '/queries/queries', { token, body: { name, text: `Hostname = ${name.toLowerCase()}*` } });
    const searched = await server.request('GET', '/queries/queries?search=bravo', { token });
    expect(searched.body.results.map((query: { name: string }) => query.name)).toEqual(['Bravo']);
    const ordered = await server.request('GET', '/queries/queries?ordering=-name&size=2', { token });
    expect(ordered.body.results.map((query: { name: string }) => query.name)).toEqual(['Unique', 'Charlie']);
    expect(ordered.body.next).toMatch(/page=2/);
    expect((await server.request('GET', '/queries/queries?ordering=secret', { token })).status).toBe(400);
  });
});
