import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

describe.each(engines)('activity log and system log on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(engine); });
  afterAll(async () => { await server?.stop(); });

  it('lists who did what with filters by user, action, result and time, and one activity', async () => {
    const token = server.adminToken;
    await server.request('POST', '/api/token', { body: { username: 'admin', password: 'not the password' } });
    const created = await server.request('POST', '/queries/queries', { token, body: { name: `audited ${engine}`, text: 'Hostname = ws-1' } });
    expect(created.status).toBe(201);
    const all = await server.request('GET', '/activities/activities', { token });
    expect(all.status).toBe(200);
    const failures = await server.request('GET', '/activities/activities?user=admin&result=failure', { token });
    expect(failures.body.results.length).toBeGreaterThan(0);
    expect(failures.body.results.every((row: { result: string; username: string }) => row.result === 'failure' && row.username === 'admin')).toBe(true);
    const byObject = await server.request('GET', '/activities/activities?target_type=queries/queries', { token });
    expect(byObject.body.results[0]).toMatchObject({ action: 'saved_query.create', target_type: 'queries/queries', result: 'success', status_code: 201 });
    const future = await server.request('GET', `/activities/activities?from=${encodeURIComponent('2999-01-01T00:00:00Z')}`, { token });
    expect(future.body.count).toBe(0);
    const one = await server.request('GET', `/activities/activities/${byObject.body.results[0].id}`, { token });
    expect(one.body.id).toBe(byObject.body.results[0].id);
    expect((await server.request('GET', '/activities/activities?from=yesterday', { token })).body).toHaveProperty('from');
  });

  it('has a text people read for the action of every route it records (the console shows "Searched devices", not devices.search)', () => {
    const messages = JSON.parse(readFileSync(new URL('../../src/web/public/locales/en-US.json', import.meta.url), 'utf8')) as Record<string, string>;
    // Mutations are recorded (src/server/activities/activityLog.ts), but not a connector's machine traffic.
    const recorded = server.app.routeCatalogue.definitions
      .filter((definition) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(definition.method) && !definition.name.startsWith('connector_api.'))
      .map((definition) => definition.name);
    // Activities written by work rather than requests: action runs and e-mailed report links.
    const byWork = ['action.run', 'action.dry_run', 'action.ssh_command', 'report.download_signed'];
    expect([...recorded, ...byWork].filter((action) => !messages[`activities.actions.${action}`])).toEqual([]);
  });

  it('exports the filtered log as CSV with formulas neutralized', async () => {
    await server.context.db.query("insert into activities (company_id, username, action, result, status_code) values (1, '=HYPERLINK(\"http://x\")', 'token.obtain', 'failure', 401)");
    const exported = await server.request('GET', '/activities/activities/export?result=failure', { token: server.adminToken });
    expect(exported.headers['content-type']).toMatch(/text\/csv/);
    expect(exported.body).toMatch(/^Time,User,Action,Object/);
    expect(exported.body).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(exported.body).not.toMatch(/,=HYPERLINK/);
  });

  it('shows the system log and keeps both logs to their permissions', async () => {
    const token = server.adminToken;
    const system = await server.request('GET', '/activities/system?search=started', { token });
    expect(system.body.results[0]).toMatchObject({ event: 'server_started', level: 'info' });
    const viewer = await createUserWithGroups(server, token, `audit-viewer-${engine}`, ['Viewers']);
    expect((await server.request('GET', '/activities/activities', { token: viewer.token })).status).toBe(403);
  });
});
