import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/server/http/routes.js';
import { optionalNotNull, schemaById } from '../../src/server/http/validators.js';
import { startTestServer, type TestServer } from './harness.js';

// Clients of the reference API send `null` for every optional value they leave out. Every optional property of
// every request body, sent as null, must be taken as absent: never a field error on it, never a 5xx.

const concreteUrl = (definition: RouteDefinition) => definition.url.replace(/:[a-z_]+\b/gi, '1');

describe('null for an optional property of any request body', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server.stop());

  it('is taken as absent on every route, as the reference API takes it', async () => {
    // Routes that end the session or change the administrator's own credentials are left out: they would stop
    // the loop from signing in, not show anything about nulls.
    const definitions = server.app.routeCatalogue.definitions.filter((definition) => definition.body && !/password|logout|otp/.test(definition.url));
    let checked = 0;
    for (const definition of definitions) {
      const example = ((schemaById(definition.body!) as { examples?: object[] }).examples ?? [])[0] ?? {};
      for (const property of optionalNotNull(definition.body!)) {
        const send = (body: object) => server.request(definition.method, concreteUrl(definition), { token: server.adminToken, body });
        const omitted = await send(Object.fromEntries(Object.entries(example).filter(([name]) => name !== property)));
        const nulled = await send({ ...example, [property]: null });
        const label = `${definition.method} ${definition.url} ${property}: null → ${nulled.status} ${JSON.stringify(nulled.body)}`;
        expect(nulled.status, label).toBeLessThan(500);
        // Whatever error leaving the property out earns it (usually none), null earns the same.
        const errorOn = (answer: { status: number; body: Record<string, unknown> | null }) => (answer.status === 400 ? answer.body?.[property] : undefined);
        expect(errorOn(nulled), label).toEqual(errorOn(omitted));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('answers the reference clients\' own bodies', async () => {
    const users = await server.request('POST', '/userinventory/users', { token: server.adminToken, body: { query: '', fields: null, page: 1, size: 50, index_id: null, ordering: [] } });
    expect(users.status).not.toBe(400);
    const dashboard = await server.request('POST', '/dashboards/dashboards', { token: server.adminToken, body: { name: 'x', description: null, is_public: true } });
    expect(dashboard).toMatchObject({ status: 201, body: { name: 'x' } });
  });

  it('still refuses null for a required property', async () => {
    expect(await server.request('POST', '/dashboards/dashboards', { token: server.adminToken, body: { name: null } })).toMatchObject({ status: 400, body: { name: [expect.any(String)] } });
  });
});
