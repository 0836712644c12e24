import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/server/http/routes.js';
import { startTestServer, userPassword, type TestServer } from './harness.js';
import { assetId, globalParameterPrefixes, prefixOf, publishInventory, seedCompanyA, type OwnedIds } from './tenancyFixtures.js';

// Every route of the table, called by company B's administrator with hostile bodies, query strings and path ids
// (company A's among them): no answer is a 5xx, and none carries a thing of company A. Bounded and seeded, so a run
// is repeatable and takes about a minute; a failure prints its seed and path for `fc.assert` to replay.

const seed = 20261128;
const runsPerRoute = 3;

// Routes left out, each for a reason of its own (not for failing):
const leftOut = new Set([
  // holds the request for a long poll when the body is valid.
  'POST /connectors/api/jobs/lease',
  // loads the 2,000-device demo into B's empty inventory and runs a discovery.
  'POST /discoveries/demo',
]);

const prototypeKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
const key = fc.oneof(fc.constantFrom(...prototypeKeys, 'name', 'id', 'query', 'text', 'type', 'fields', 'index_id', 'dashboard', 'report', 'connection', 'user_ids', 'group_ids', 'parameters', 'sections'), fc.string({ maxLength: 12 }));
const leaf = fc.oneof(
  fc.string({ maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
  fc.constantFrom(...prototypeKeys, 'x'.repeat(100_000), "' or 1=1 --", '\u0000', '{{constructor}}', 'Query is 1', -1, 0, 2 ** 31, 1e308, Number.MAX_SAFE_INTEGER + 2),
);
// Deep nesting, arrays where objects go and objects where arrays go.
const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 5 })),
}));
const deeplyNested = fc.integer({ min: 50, max: 400 }).map((depth) => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) as unknown);
const hostileBody = fc.oneof(fc.dictionary(key, hostileValue, { maxKeys: 8 }), hostileValue, deeplyNested);
const queryValue = fc.oneof(fc.constantFrom(...prototypeKeys, `-${prototypeKeys[0]}`, '-constructor', 'x'.repeat(5000), '%', '[]', '1e999', '-1'), fc.string({ maxLength: 20 }));
const queryString = fc.dictionary(fc.constantFrom('ordering', 'search', 'page', 'size', 'filter', 'status', 'action', 'format', ...prototypeKeys), queryValue, { maxKeys: 4 })
  .map((parameters) => new URLSearchParams(Object.entries(parameters)).toString());

describe('a fuzz run of the route table', () => {
  let server: TestServer;
  let tokenB: string;
  let connectorTokenB: string;
  let owned: OwnedIds;
  let namesOfA: string[];
  let assetIdsOfA: string[];

  beforeAll(async () => {
    server = await startTestServer('pglite');
    owned = await seedCompanyA(server);
    const companyB = (await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Company B' } })).body.id;
    await server.request('POST', `/companies/companies/${companyB}/administrators`, { token: server.adminToken, body: { username: 'b.admin', password: userPassword } });
    tokenB = await server.signIn('b.admin', userPassword);
    await publishInventory(server, companyB, 'B');
    connectorTokenB = (await server.request('POST', '/connectors/connectors', { token: tokenB, body: { name: 'B plant' } })).body.token;
    // What only company A's things carry: their asset ids and the names the fixtures gave them.
    // Every name the fixtures give A's things carries "Alphacorp"; the Jira connection's secret settings name the bot.
    namesOfA = ['Alphacorp', 'bot@example.test'];
    assetIdsOfA = ['d1', 'd2', 'u1', 'v1', 's1', 'c1'].map((id) => assetId('A', id));
  }, 240_000);
  afterAll(() => server.stop());

  const pathIds = (definition: RouteDefinition) => {
    const ownedId = owned.ids.get(prefixOf(definition));
    return fc.constantFrom(...(ownedId === undefined ? [] : [String(ownedId)]), ...prototypeKeys, '1', '0', '-1', '1e999', '99999999999999999999', 'x'.repeat(2000), '%2e%2e%2f');
  };

  it('answers every route without a 5xx and without a thing of company A', async () => {
    const definitions = server.app.routeCatalogue.definitions.filter((definition) => !leftOut.has(`${definition.method} ${definition.url}`));
    expect(definitions.length).toBeGreaterThan(200);
    let calls = 0;
    for (const [position, definition] of definitions.entries()) {
      const label = `${definition.method} ${definition.url}`;
      // B's activity log rightly shows the paths B itself called, A's asset ids among them; never A's names.
      const markersOfA = definition.url.startsWith('/activities/') ? namesOfA : [...namesOfA, ...assetIdsOfA];
      await fc.assert(
        fc.asyncProperty(hostileBody, queryString, pathIds(definition), pathIds(definition), async (body, query, id, format) => {
          calls += 1;
          const path = definition.url.replace(/:id\b/, encodeURIComponent(id)).replace(/:(format|slug)\b/, encodeURIComponent(format));
          const withBody = !['GET', 'DELETE'].includes(definition.method) || definition.body !== undefined;
          const answer = await server.request(definition.method, `${path}?${query}`, {
            ...(withBody && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
            ...(definition.url.startsWith('/connectors/api/') ? { headers: { 'content-type': 'application/json', authorization: `Bearer ${connectorTokenB}` } } : { token: tokenB }),
          });
          expect(answer.status, `${label} → ${path}?${query}: ${JSON.stringify(answer.body).slice(0, 500)}`).toBeLessThan(500);
          const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
          for (const marker of markersOfA) expect(text.includes(marker), `${label} → ${path} shows "${marker}" of company A`).toBe(false);
        }),
        { seed: seed + position, numRuns: runsPerRoute, endOnFailure: true },
      );
    }
    expect(calls).toBe(definitions.length * runsPerRoute);
  }, 600_000);
});
