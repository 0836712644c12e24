import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/server/http/routes.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

const concreteUrl = (definition: RouteDefinition) => definition.url.replace(/:id\b/g, '1');

describe.each(engines)('every route declares and enforces its access on %s', (engine) => {
  let server: TestServer;
  let definitions: RouteDefinition[];
  let powerlessToken: string;
  let expiredToken: string;

  beforeAll(async () => {
    server = await startTestServer(engine);
    definitions = server.app.routeCatalogue.definitions;
    // A member of a group without a single permission.
    const group = await server.request('POST', '/users/groups', { token: server.adminToken, body: { name: 'Nobody', permissions: [] } });
    const user = await createUserWithGroups(server, server.adminToken, 'powerless', ['Nobody']);
    powerlessToken = user.token;
    expiredToken = await new SignJWT({ user_id: 1, company_id: 1, username: 'admin', adapters: ['*'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1)
      .sign(server.context.keys.tokenSigningKey);
    expect(group.status).toBe(201);
  });
  afterAll(() => server.stop());

  it('has a route table that covers the API', () => {
    expect(definitions.length).toBeGreaterThan(40);
    for (const definition of definitions) expect(definition.access, `${definition.method} ${definition.url}`).toMatch(/^(public|account|authenticated|[a-z]+\.[a-z_]+)$/);
  });

  it('uses only permissions from the catalogue', async () => {
    const catalogue = new Set((await server.request('GET', '/users/permissions?size=1000', { token: server.adminToken })).body.results.map((permission: { app: string; codename: string }) => `${permission.app}.${permission.codename}`));
    for (const definition of definitions.filter((candidate) => candidate.access.includes('.'))) expect(catalogue, definition.name).toContain(definition.access);
  });

  it('answers 401 without a token and with an expired one on every non-public route', async () => {
    for (const definition of definitions.filter((candidate) => candidate.access !== 'public')) {
      const label = `${definition.method} ${definition.url}`;
      expect((await server.request(definition.method, concreteUrl(definition), { body: {} })).status, label).toBe(401);
      expect((await server.request(definition.method, concreteUrl(definition), { body: {}, token: expiredToken })).status, label).toBe(401);
    }
  });

  it('answers 403 on every permission-guarded route to a user without that permission', async () => {
    for (const definition of definitions.filter((candidate) => candidate.access.includes('.'))) {
      const answer = await server.request(definition.method, concreteUrl(definition), { body: {}, token: powerlessToken });
      expect(answer.status, `${definition.method} ${definition.url}`).toBe(403);
      expect(answer.body.code).toBe('permission_denied');
    }
  });

  it('lets any signed-in user reach the routes that need no permission', async () => {
    for (const definition of definitions.filter((candidate) => candidate.access === 'authenticated' || candidate.access === 'account')) {
      const answer = await server.request(definition.method, concreteUrl(definition), { body: {}, token: powerlessToken });
      // Reached means answered by the handler: not refused, and not failed either (a 500 is no proof of access).
      expect([401, 403], `${definition.method} ${definition.url}`).not.toContain(answer.status);
      expect(answer.status, `${definition.method} ${definition.url}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
    }
  });

  it('gives a Viewer 403 when creating a user', async () => {
    const viewer = await createUserWithGroups(server, server.adminToken, 'viewer', ['Viewers']);
    const answer = await server.request('POST', '/users/users', { token: viewer.token, body: { username: 'sneaky' } });
    expect(answer.status).toBe(403);
  });
});
