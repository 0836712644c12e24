import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryRunner } from '../../src/server/discovery/runner.js';
import { JobBus } from '../../src/server/jobs/jobBus.js';
import { addFleetConnections, fleetRuntime, runDiscoveryAndWait, waitForDiscoveries } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

const { runtime } = fleetRuntime(200, 5);

describe.each(engines)('discovery schedule and settings on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: runtime });
    await addFleetConnections(server);
  });
  afterAll(() => server.stop());

  it('answers the defaults, keeps what is saved, and refuses bad values with field errors', async () => {
    const token = server.adminToken;
    expect((await server.request('GET', '/configurations/discovery-schedule', { token })).body).toEqual({ enabled: false, cron: '0 2 * * *', timezone: 'UTC', next_runs: [] });
    expect((await server.request('GET', '/configurations/discovery-settings', { token })).body).toEqual({ concurrency: 4, connection_timeout_minutes: 30, snapshots_to_keep: 10 });

    const saved = await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: true, cron: '30 3 * * 1', timezone: 'Europe/Berlin' } });
    expect(saved.status).toBe(200);
    expect(saved.body.next_runs).toHaveLength(5);
    // 03:30 in Berlin on a Monday is 01:30 or 02:30 UTC, depending on daylight saving time.
    for (const run of saved.body.next_runs) expect(new Date(run).getUTCDay()).toBe(1);
    expect((await server.request('GET', '/configurations/discovery-schedule', { token })).body).toMatchObject({ enabled: true, cron: '30 3 * * 1', timezone: 'Europe/Berlin' });

    expect(await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: true, cron: '61 * * * *', timezone: 'UTC' } })).toMatchObject({ status: 400, body: { cron: [expect.stringContaining('Invalid cron')] } });
    expect(await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: true, cron: '0 2 * * *', timezone: 'Mars/Olympus' } })).toMatchObject({ status: 400, body: { timezone: [expect.stringContaining('Unknown time zone')] } });
    expect(await server.request('PUT', '/configurations/discovery-settings', { token, body: { concurrency: 0, connection_timeout_minutes: 30, snapshots_to_keep: 10 } })).toMatchObject({ status: 400, body: { concurrency: expect.any(Array) } });
    await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: false, cron: '0 2 * * *', timezone: 'UTC' } });
  });

  it('starts one discovery for a scheduled slot, however many processes see it', async () => {
    const token = server.adminToken;
    await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: true, cron: '*/5 * * * *', timezone: 'UTC' } });
    // Another process: a job bus and a runner of its own, on the same database.
    const otherJobs = new JobBus(server.context.db, server.context.config.databaseUrl, () => undefined);
    const other = new DiscoveryRunner(server.context, otherJobs);
    await otherJobs.start({ work: false });
    try {
      const slot = new Date(Math.ceil(Date.now() / 300_000) * 300_000);
      const [since, now] = [new Date(slot.getTime() - 5_000), new Date(slot.getTime() + 1_000)];
      const sent = (await server.discoveries.scheduler.tick(now, since)) + (await other.scheduler.tick(now, since)) + (await other.scheduler.tick(now, since));
      expect(sent).toBe(1);
      // A tick before the slot sends nothing.
      expect(await other.scheduler.tick(new Date(slot.getTime() - 1_000), since)).toBe(0);
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const [{ count }] = await server.context.db.query<{ count: number }>("select count(*)::int as count from discoveries where trigger = 'schedule'");
        if (count) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const done = await waitForDiscoveries(server);
      expect(done).toMatchObject({ trigger: 'schedule', state: 'done' });
      const [{ count }] = await server.context.db.query<{ count: number }>("select count(*)::int as count from discoveries where trigger = 'schedule'");
      expect(count).toBe(1);
    } finally {
      other.stop();
      await otherJobs.stop();
      await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: false, cron: '0 2 * * *', timezone: 'UTC' } });
    }
  });

  it('runs discoveries with the saved settings: snapshots kept and source precedence per field', async () => {
    const token = server.adminToken;
    const saved = await server.request('PUT', '/configurations/discovery-settings', { token, body: { concurrency: 1, connection_timeout_minutes: 5, snapshots_to_keep: 1 } });
    expect(saved.status).toBe(200);
    const advanced = await server.request('GET', '/configurations/advanced-configuration', { token });
    expect((await server.request('PUT', '/configurations/advanced-configuration', { token, body: { ...advanced.body, ordering: { Hostname: ['qualys', 'servicenow'] } } })).status).toBe(200);
    const first = await runDiscoveryAndWait(server);
    const second = await runDiscoveryAndWait(server);
    expect(second.state).toBe('done');
    // Older snapshots are pruned right after the publish that made them old, outside its transaction.
    const remaining = async () => (await server.context.db.query<{ count: number }>('select count(*)::int as count from snapshot_assets where discovery_id = $1', [first.id]))[0].count;
    for (let waited = 0; waited < 10_000 && (await remaining()) > 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await remaining()).toBe(0);
    const scanned = await server.request('POST', '/devices/devices', { token, body: { query: 'Adapters = qualys AND Adapters = crowdstrike', size: 1 } });
    const detail = await server.request('POST', `/devices/devices/${scanned.body.results[0].PrimaryKey[0]}`, { token, body: {} });
    expect(detail.body.preferred.Hostname.adapter).toBe('qualys');
    expect(detail.body.Hostname[0]).toMatch(/\.corp\.example\.com$/);
    const configuration = await server.request('GET', '/configurations/discovery', { token });
    expect(configuration.body.ordering).toEqual({ Hostname: ['qualys', 'servicenow'] });
  });
});
