import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/web/app/routeTable.js';
import { listParams } from '../../src/web/renderers/list/listParams.js';
import { loadEntitySchema, type EntitySchema } from '../../src/web/renderers/schema/entitySchema.js';
import { listFields, sortableFields } from '../../src/web/renderers/schema/fields.js';
import { startTestServer, type TestServer } from './harness.js';

// The console's generic list (src/web/renderers/list) decides from the schema alone which columns it shows and which
// headers sort; this checks those decisions against the real API for every generic:list route of schemas/routes.json.
const listRoutes = routeTable.filter((route) => route.page === 'generic:list' && route.schema);

function queryString(params: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString();
}

describe('the generic list against the API', () => {
  let server: TestServer;
  const schemas = new Map<string, EntitySchema>();
  beforeAll(async () => {
    server = await startTestServer('pglite');
    for (const route of listRoutes) schemas.set(route.schema!, await loadEntitySchema(route.schema!));
  });
  afterAll(() => server.stop());

  it('has generic list routes to check', () => {
    expect(listRoutes.length).toBeGreaterThan(0);
  });

  for (const route of listRoutes) {
    it(`${route.path}: the first page answers a DRF page whose rows carry every column the list shows`, async () => {
      const schema = schemas.get(route.schema!)!;
      const path = schema['x-resource']!.path;
      const answer = await server.request('GET', `${path}?${queryString(listParams({ page: 1, size: 50, search: '' }))}`, { token: server.adminToken });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['count', 'next', 'previous', 'results']);
      expect(answer.body.results.length).toBeGreaterThan(0);
      for (const field of listFields(schema)) expect(answer.body.results[0]).toHaveProperty(field.name);
    });

    it(`${route.path}: every header the list offers to sort by is accepted by the server, both ways`, async () => {
      const schema = schemas.get(route.schema!)!;
      const path = schema['x-resource']!.path;
      const sortable = [...sortableFields(schema)];
      expect(sortable.length).toBeGreaterThan(0);
      for (const field of sortable) {
        for (const ordering of [field, `-${field}`]) {
          const answer = await server.request('GET', `${path}?${queryString(listParams({ page: 1, size: 5, ordering }))}`, { token: server.adminToken });
          expect({ ordering, status: answer.status }).toEqual({ ordering, status: 200 });
        }
      }
    });

    it(`${route.path}: a search is accepted and still answers a page`, async () => {
      const schema = schemas.get(route.schema!)!;
      const answer = await server.request('GET', `${schema['x-resource']!.path}?${queryString(listParams({ page: 1, size: 5, search: 'a' }))}`, { token: server.adminToken });
      expect(answer.status).toBe(200);
      expect(typeof answer.body.count).toBe('number');
    });
  }
});
