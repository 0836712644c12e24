import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

/** Enrols `username` in one-time passwords; answers the secret and the recovery codes shown once. */
async function enrol(server: TestServer, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await server.request('POST', '/api/otp/setup', { token });
  const confirm = await server.request('POST', '/api/otp/confirm', { token, body: { code: await generate({ secret: setup.body.secret }) } });
  expect(confirm.status).toBe(200);
  return { secret: setup.body.secret, recoveryCodes: confirm.body.recovery_codes };
}

describe.each(engines)('second factor recovery on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.stop());

  it('cancels an enrolment that was started, so confirming it then is refused', async () => {
    const user = await createUserWithGroups(server, server.adminToken, 'cancel.user', ['Analysts']);
    const setup = await server.request('POST', '/api/otp/setup', { token: user.token });
    expect(await server.request('POST', '/api/otp/cancel', { token: user.token })).toMatchObject({ status: 200, body: { enabled: false } });
    const [row] = await server.context.db.query<{ otp_pending_secret: string | null }>("select otp_pending_secret from users where username = 'cancel.user'");
    expect(row.otp_pending_secret).toBeNull();
    const late = await server.request('POST', '/api/otp/confirm', { token: user.token, body: { code: await generate({ secret: setup.body.secret }) } });
    expect(late).toMatchObject({ status: 400, body: { code: 'otp_not_started' } });
  });

  it('shows ten recovery codes once, stores them hashed, and takes each once in place of a code at sign-in', async () => {
    const user = await createUserWithGroups(server, server.adminToken, 'recovery.user', ['Analysts']);
    const { recoveryCodes } = await enrol(server, user.token);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const stored = await server.context.db.query<{ code_hash: string }>(
      "select code_hash from otp_recovery_codes where user_id = (select id from users where username = 'recovery.user')",
    );
    expect(stored).toHaveLength(10);
    for (const row of stored) for (const code of recoveryCodes) expect(row.code_hash).not.toContain(code.replace('-', ''));

    const credentials = { username: 'recovery.user', password: userPassword };
    // Typed in capitals and without the dash, as people copy them from paper.
    const typed = recoveryCodes[3].replace('-', '').toUpperCase();
    const signedIn = await server.request('POST', '/api/token', { body: { ...credentials, otp: typed } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.access).toEqual(expect.any(String));
    expect(await server.request('POST', '/api/token', { body: { ...credentials, otp: recoveryCodes[3] } })).toMatchObject({ status: 401, body: { code: 'invalid_otp' } });
    expect(await server.request('POST', '/api/token', { body: { ...credentials, otp: 'abcde-fghij' } })).toMatchObject({ status: 401 });
    expect((await server.request('POST', '/api/token', { body: { ...credentials, otp: recoveryCodes[4] } })).status).toBe(200);
    expect(await server.request('GET', '/api/otp', { token: user.token })).toMatchObject({ body: { enabled: true, recovery_codes_left: 8 } });
  });

  it('lets an administrator reset a user second factor, recorded as an activity; the user signs in with the password alone', async () => {
    const user = await createUserWithGroups(server, server.adminToken, 'reset.user', ['Analysts']);
    await enrol(server, user.token);
    expect(await server.request('GET', `/users/users/${user.id}/otp`, { token: server.adminToken })).toMatchObject({ status: 200, body: { enabled: true } });
    // Only someone who may change users resets it.
    expect((await server.request('DELETE', `/users/users/${user.id}/otp`, { token: user.token })).status).toBe(403);

    expect((await server.request('DELETE', `/users/users/${user.id}/otp`, { token: server.adminToken })).status).toBe(204);
    expect(await server.request('GET', `/users/users/${user.id}/otp`, { token: server.adminToken })).toMatchObject({ body: { enabled: false } });
    const [left] = await server.context.db.query<{ count: number }>('select count(*)::int as count from otp_recovery_codes where user_id = $1', [user.id]);
    expect(left.count).toBe(0);
    const signedIn = await server.request('POST', '/api/token', { body: { username: 'reset.user', password: userPassword } });
    expect(signedIn.body.access).toEqual(expect.any(String));

    const activities = await server.request('GET', '/activities/activities?action=users.reset_otp', { token: server.adminToken });
    const recorded = activities.body.results.find((activity: { action: string }) => activity.action === 'users.reset_otp');
    expect(recorded).toMatchObject({ username: 'admin', target_id: String(user.id), result: 'success' });
  });

  it('answers 404 for the second factor of a user of another company or none', async () => {
    expect((await server.request('DELETE', '/users/users/999999/otp', { token: server.adminToken })).status).toBe(404);
    expect((await server.request('GET', '/users/users/999999/otp', { token: server.adminToken })).status).toBe(404);
  });
});
