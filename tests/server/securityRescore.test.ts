import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starterPolicies } from '../../src/server/security/starterPolicies.js';
import { addFleetConnections, fleetRuntime, runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

const { runtime } = fleetRuntime(60, 7);

/** Polls until `check` holds: the rescoring runs as a job of its own, after the answer. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

describe.each(engines)('security policies rescoring the latest snapshot on %s', (engine) => {
  let server: TestServer;
  const call = (method: string, url: string, body?: object) => server.request(method, url, { token: server.adminToken, body });
  const count = async (query: string) => (await call('POST', '/devices/devices', { query, size: 1 })).body.count as number;
  const policyNamed = async (name: string) =>
    ((await call('GET', '/securitymanager/security-policies?size=100')).body.results as { id: number; name: string; last_result: { failed: number; applicable: number } | null }[]).find((policy) => policy.name === name)!;

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: runtime });
    await addFleetConnections(server);
    await runDiscoveryAndWait(server);
  }, 120_000);
  afterAll(() => server.stop());

  it('scores the latest snapshot again when a policy is enabled, changed or disabled, without a discovery', async () => {
    const devices = await count('');
    expect(devices).toBeGreaterThan(0);
    expect(await count('SecurityScore = *')).toBe(0);
    const created = await call('POST', '/securitymanager/security-policies', { name: 'In the CMDB', severity: 'high', enabled: true, query: 'Adapters = servicenow' });
    expect(created.status).toBe(201);
    await eventually(async () => (await policyNamed('In the CMDB')).last_result !== null, 'the new policy scored');
    expect((await policyNamed('In the CMDB')).last_result).toMatchObject({ applicable: devices, failed: await count('NOT Adapters = servicenow') });
    expect(await count('SecurityScore = *')).toBe(devices);
    expect(await count('FailedPolicies = "In the CMDB"')).toBe(await count('NOT Adapters = servicenow'));

    // A changed condition: the failures follow it.
    expect((await call('PATCH', `/securitymanager/security-policies/${created.body.id}`, { query: 'Adapters = crowdstrike' })).status).toBe(200);
    const failing = await count('NOT Adapters = crowdstrike');
    await eventually(async () => (await policyNamed('In the CMDB')).last_result?.failed === failing, 'the changed policy scored');
    expect(await count('FailedPolicies = "In the CMDB"')).toBe(failing);

    // Disabled, the only policy no longer scores anyone.
    expect((await call('PATCH', `/securitymanager/security-policies/${created.body.id}`, { enabled: false })).status).toBe(200);
    await eventually(async () => (await count('SecurityScore = *')) === 0, 'the scores gone');
    expect(await count('FailedPolicies = *')).toBe(0);
  }, 120_000);

  it('says how many starter policies were already there', async () => {
    const first = await call('POST', '/securitymanager/security-policies/starter', { enable: false });
    // The company has had the leaver policy (on users) since it was created.
    expect(first.body).toMatchObject({ added: starterPolicies.length - 1, already_present: 1, available: starterPolicies.length });
    const again = await call('POST', '/securitymanager/security-policies/starter', { enable: false });
    expect(again.body).toMatchObject({ added: 0, already_present: starterPolicies.length, enabled: 0 });
  });
});
