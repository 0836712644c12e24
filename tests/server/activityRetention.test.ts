import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneActivityLogs, sendHourlyPrune } from '../../src/server/activities/activityRetention.js';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

describe.each(engines)('retention of the activity log and the system log on %s', (engine) => {
  let server: TestServer;
  let otherCompany: number;
  beforeAll(async () => {
    server = await startTestServer(engine);
    otherCompany = (await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: `Retained ${engine}` } })).body.id;
  });
  afterAll(async () => { await server?.stop(); });

  /** An activity (or, with `company` undefined, a system event) dated `days` ago, answering its id. */
  const activityAged = async (company: number | null, days: number) => (await server.context.db.query<{ id: number }>(
    "insert into activities (company_id, username, action, result, status_code, created_at) values ($1, 'aged', 'test.aged', 'success', 200, now() - make_interval(days => $2)) returning id",
    [company, days],
  ))[0].id;
  const systemEventAged = async (days: number) => (await server.context.db.query<{ id: number }>(
    "insert into system_log (level, event, message, created_at) values ('info', 'test_aged', 'aged', now() - make_interval(days => $1)) returning id", [days],
  ))[0].id;
  const remaining = async (table: 'activities' | 'system_log', ids: number[]) =>
    (await server.context.db.query<{ id: number }>(`select id from ${table} where id = any($1::int[]) order by id`, [ids])).map((row) => row.id);

  it('answers the defaults, keeps what is saved, and refuses what is out of range or not allowed', async () => {
    const token = server.adminToken;
    expect((await server.request('GET', '/configurations/activity-retention', { token })).body).toEqual({ user_activity_days: 365, system_log_days: 365 });
    const saved = await server.request('PUT', '/configurations/activity-retention', { token, body: { user_activity_days: 30, system_log_days: 90 } });
    expect(saved).toMatchObject({ status: 200, body: { user_activity_days: 30, system_log_days: 90 } });
    expect((await server.request('GET', '/configurations/activity-retention', { token })).body).toEqual({ user_activity_days: 30, system_log_days: 90 });
    expect((await server.request('PUT', '/configurations/activity-retention', { token, body: { user_activity_days: 0, system_log_days: 90 } })).body).toHaveProperty('user_activity_days');
    expect((await server.request('PUT', '/configurations/activity-retention', { token, body: { user_activity_days: 30, system_log_days: 90, forever: true } })).status).toBe(400);
    expect((await server.request('PUT', '/configurations/activity-retention', { token, body: { user_activity_days: 30, system_log_days: 3651 } })).body).toHaveProperty('system_log_days');
    const viewer = await createUserWithGroups(server, token, `retention-viewer-${engine}`, ['Viewers']);
    expect((await server.request('PUT', '/configurations/activity-retention', { token: viewer.token, body: { user_activity_days: 1, system_log_days: 1 } })).status).toBe(403);
  });

  it("deletes each company's old activities by its own setting and old system events by the provider's, and keeps recent ones", async () => {
    // The provider company keeps activities 30 days and the system log 90 (saved above); the other company has the default 365.
    const providerOld = await activityAged(1, 40);
    const providerRecent = await activityAged(1, 10);
    const otherOld = await activityAged(otherCompany, 400);
    const otherKept = await activityAged(otherCompany, 40);
    const nobodysOld = await activityAged(null, 40);
    const nobodysRecent = await activityAged(null, 1);
    const eventOld = await systemEventAged(100);
    const eventKept = await systemEventAged(60);

    const deleted = await pruneActivityLogs(server.context.db);
    expect(deleted.activities).toBeGreaterThanOrEqual(3);
    expect(deleted.systemLog).toBeGreaterThanOrEqual(1);
    expect(await remaining('activities', [providerOld, providerRecent, otherOld, otherKept, nobodysOld, nobodysRecent])).toEqual([providerRecent, otherKept, nobodysRecent]);
    expect(await remaining('system_log', [eventOld, eventKept])).toEqual([eventKept]);
  });

  it('prunes once an hour through the job queue, however many processes tick', async () => {
    const stale = await activityAged(1, 31);
    const send = server.context.jobs.send;
    // A tick that stays within an hour sends nothing; the first to cross into the next hour sends its job, once.
    const hour = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 7 * 24 * 3_600_000);
    expect(await sendHourlyPrune(send, new Date(hour.getTime() + 1_000), new Date(hour.getTime() + 16_000))).toBe(false);
    expect(await sendHourlyPrune(send, new Date(hour.getTime() - 5_000), new Date(hour.getTime() + 10_000))).toBe(true);
    expect(await sendHourlyPrune(send, new Date(hour.getTime() - 3_000), new Date(hour.getTime() + 12_000))).toBe(false);
    // The queue worker of this process runs it and logs what it deleted last; the test's own timeout bounds the wait.
    const prunedEvent = () => server.context.db.query<{ detail: { activities: number } }>("select detail from system_log where event = 'activity_log_pruned' order by id desc limit 1");
    while (!(await prunedEvent()).length) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await prunedEvent())[0].detail.activities).toBeGreaterThanOrEqual(1);
    expect(await remaining('activities', [stale])).toEqual([]);
  });
});
