import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPassword, engines, startTestServer, userPassword, type TestServer } from './harness.js';

type ActivityDetail = { id: number; action: string; target_id: string; value_before: any; value_after: any };

describe.each(engines)('what a change did, in the activity log, on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(engine); });
  afterAll(async () => { await server?.stop(); });

  const recorded = new Map<string, number>();
  /**
   * The activity of the action's latest request, read as the detail page reads it. An activity is written once its
   * answer is sent, so this waits for the action's next one (the test's own timeout bounds the wait).
   */
  const latest = async (action: string): Promise<ActivityDetail> => {
    const seen = (recorded.get(action) ?? 0) + 1;
    recorded.set(action, seen);
    let listed = await server.request('GET', `/activities/activities?action=${action}&size=1`, { token: server.adminToken });
    while (listed.body.count < seen) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      listed = await server.request('GET', `/activities/activities?action=${action}&size=1`, { token: server.adminToken });
    }
    expect(listed.body.count, action).toBe(seen);
    const detail = await server.request('GET', `/activities/activities/${listed.body.results[0].id}`, { token: server.adminToken });
    expect(detail.status).toBe(200);
    return detail.body;
  };

  it('shows a user before and after an edit, the create with its id, and a password only as set', async () => {
    const token = server.adminToken;
    const created = await server.request('POST', '/users/users', { token, body: { username: `jane-${engine}`, email: 'jane@example.test', first_name: 'Jane', password: userPassword } });
    expect(created.status).toBe(201);
    const create = await latest('users.create');
    expect(create).toMatchObject({ target_id: String(created.body.id), value_before: null, value_after: { username: `jane-${engine}`, first_name: 'Jane', password: '[redacted]' } });

    const newPassword = 'a brand new passphrase 42';
    const edited = await server.request('PATCH', `/users/users/${created.body.id}`, { token, body: { first_name: 'Janet', password: newPassword } });
    expect(edited.status).toBe(200);
    const edit = await latest('users.partial_update');
    expect(edit.target_id).toBe(String(created.body.id));
    expect(edit.value_before).toMatchObject({ first_name: 'Jane', email: 'jane@example.test' });
    expect(edit.value_before).not.toHaveProperty('password');
    expect(edit.value_after).toMatchObject({ first_name: 'Janet', email: 'jane@example.test', password: '[redacted]' });

    const removed = await server.request('DELETE', `/users/users/${created.body.id}`, { token });
    expect(removed.status).toBe(204);
    expect(await latest('users.delete')).toMatchObject({ value_before: { username: `jane-${engine}`, first_name: 'Janet' }, value_after: null });

    // No password, typed or hashed, anywhere in the log.
    const [{ text }] = await server.context.db.query<{ text: string }>('select coalesce(string_agg(value_before::text || value_after::text, \' \'), \'\') as text from activities');
    for (const secret of [userPassword, newPassword, adminPassword, '$argon2']) expect(text).not.toContain(secret);
  });

  it('keeps a settings document before and after each save, its sealed secret redacted', async () => {
    const token = server.adminToken;
    const page = { enabled: true, host: '127.0.0.1', port: 2525, security: 'none', username: 'mailer', password: 'smtp-s3cret-value', from: 'cartograph@example.test', ca_certificate: '', verify_certificate: true };
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: page })).status).toBe(200);
    const first = await latest('smtp_configuration.update');
    expect(first.value_before).toBeNull();
    expect(first.value_after).toMatchObject({ host: '127.0.0.1', port: 2525, username: 'mailer', password: '[redacted]' });
    // The schema of what the request sent, whose titles the console gives the change's fields.
    expect((first as unknown as { schema_id: string }).schema_id).toBe('cartograph:settings/smtp-configuration');
    // The password comes back masked, so the mail server stays the one it was saved for (a new port would need it again).
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...page, from: 'reports@example.test', password: '**********' } })).status).toBe(200);
    const second = await latest('smtp_configuration.update');
    expect(second.value_before).toMatchObject({ from: 'cartograph@example.test', password: '[redacted]' });
    expect(second.value_after).toMatchObject({ from: 'reports@example.test', password: '[redacted]' });
    const [stored] = await server.context.db.query<{ password: string }>("select document->>'password' as password from resources where kind = 'cartograph:settings/smtp-configuration' and company_id = 1");
    expect(stored.password).toMatch(/^v1\./);
    for (const activity of [first, second]) {
      const text = JSON.stringify(activity);
      expect(text).not.toContain('smtp-s3cret-value');
      expect(text).not.toContain(stored.password);
    }
    // A save the schema refuses changed nothing and keeps nothing.
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...page, port: 0 } })).status).toBe(400);
    const refused = () => server.context.db.query<{ value_before: unknown; value_after: unknown }>("select value_before, value_after from activities where action = 'smtp_configuration.update' and result = 'failure'");
    while (!(await refused()).length) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await refused()).toEqual([{ value_before: null, value_after: null }]);
  });

  it('records the id of any create, and a generic resource before and after each change', async () => {
    const token = server.adminToken;
    // Saved queries have routes of their own: the create's answer still names the activity's target.
    const query = await server.request('POST', '/queries/queries', { token, body: { name: `Windows ${engine}`, text: 'OS.Type = Windows' } });
    expect(query.status).toBe(201);
    expect(await latest('saved_query.create')).toMatchObject({ target_id: String(query.body.id) });

    const group = await server.request('POST', '/appinventory/groups', { token, body: { name: `Browsers ${engine}`, query: 'Category = browser', software: [] } });
    expect(group.status).toBe(201);
    expect(await latest('software_group.create')).toMatchObject({ target_id: String(group.body.id), value_before: null, value_after: { name: `Browsers ${engine}` } });
    expect((await server.request('PATCH', `/appinventory/groups/${group.body.id}`, { token, body: { query: 'Category = editor' } })).status).toBe(200);
    expect(await latest('software_group.partial_update')).toMatchObject({ value_before: { query: 'Category = browser' }, value_after: { query: 'Category = editor' } });
    expect((await server.request('DELETE', `/appinventory/groups/${group.body.id}`, { token })).status).toBe(204);
    expect(await latest('software_group.delete')).toMatchObject({ target_id: String(group.body.id), value_before: { query: 'Category = editor' }, value_after: null });
  });
});
