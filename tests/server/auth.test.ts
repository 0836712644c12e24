import { generate } from 'otplib';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPassword, createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';

describe.each(engines)('sign-in and account on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.stop());

  it('answers pong without a token', async () => {
    expect(await server.request('GET', '/api/ping')).toMatchObject({ status: 200, body: { pong: 'ok' } });
  });

  it('signs in with username and password and lists the permissions of the user', async () => {
    const me = await server.request('GET', '/api/me', { token: server.adminToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'admin', password_expired: false, otp_enabled: false, groups: [{ name: 'Administrators' }] });
    expect(me.body.permissions).toContain('users.add_user');
    expect(me.body).not.toHaveProperty('password_hash');
  });

  it('gives the same answer for a wrong password and an unknown username', async () => {
    const wrongPassword = await server.request('POST', '/api/token', { body: { username: 'admin', password: 'not the password' } });
    const unknownUser = await server.request('POST', '/api/token', { body: { username: 'nobody-at-all', password: 'not the password' } });
    expect(wrongPassword).toMatchObject({ status: 401, body: { detail: 'Invalid username or password.' } });
    expect(unknownUser.status).toBe(wrongPassword.status);
    expect(unknownUser.body).toEqual(wrongPassword.body);
  });

  it('locks an account after five failed sign-ins within 15 minutes, even for the right password', async () => {
    await createUserWithGroups(server, server.adminToken, 'locky', ['Viewers']);
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt += 1) answers.push(await server.request('POST', '/api/token', { body: { username: 'locky', password: 'wrong guess' } }));
    expect(answers.slice(0, 4).map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    expect(answers[4]).toMatchObject({ status: 403, body: { code: 'account_locked' } });
    const rightPassword = await server.request('POST', '/api/token', { body: { username: 'locky', password: userPassword } });
    expect(rightPassword).toMatchObject({ status: 403, body: { code: 'account_locked' } });
    const [event] = await server.context.db.query<{ event: string }>("select event from system_log where event = 'account_locked'");
    expect(event).toBeDefined();
  });

  it('asks for the one-time password once it is enabled, and accepts only the right code', async () => {
    const user = await createUserWithGroups(server, server.adminToken, 'otp.user', ['Analysts']);
    const setup = await server.request('POST', '/api/otp/setup', { token: user.token });
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Cartograph:otp\.user\?/);
    expect(await server.request('POST', '/api/otp/confirm', { token: user.token, body: { code: '000000' } })).toMatchObject({ status: 400, body: { code: ['Invalid one-time password.'] } });
    const confirm = await server.request('POST', '/api/otp/confirm', { token: user.token, body: { code: await generate({ secret: setup.body.secret }) } });
    expect(confirm.body).toMatchObject({ enabled: true, recovery_codes: expect.any(Array) });

    const credentials = { username: 'otp.user', password: userPassword };
    expect(await server.request('POST', '/api/token', { body: credentials })).toMatchObject({ status: 200, body: { otp_required: true } });
    expect((await server.request('POST', '/api/token', { body: { ...credentials, otp: '000000' } })).status).toBe(401);
    const signedIn = await server.request('POST', '/api/token', { body: { ...credentials, otp: await generate({ secret: setup.body.secret }) } });
    expect(signedIn.body.access).toEqual(expect.any(String));

    const [stored] = await server.context.db.query<{ otp_secret: string }>("select otp_secret from users where username = 'otp.user'");
    expect(stored.otp_secret).not.toContain(setup.body.secret);
    expect(await server.request('POST', '/api/otp/disable', { token: user.token, body: { password: credentials.password } })).toMatchObject({ body: { enabled: false } });
  });

  it('sends a user with an expired password only to the account endpoints until it is changed', async () => {
    const user = await createUserWithGroups(server, server.adminToken, 'expiring', ['Administrators']);
    await server.context.db.query("update users set password_expired = true where username = 'expiring'");
    const signedIn = await server.request('POST', '/api/token', { body: { username: 'expiring', password: userPassword } });
    expect(signedIn.body).toMatchObject({ password_expired: true });
    const token = signedIn.body.access;
    expect(await server.request('GET', '/users/users', { token })).toMatchObject({ status: 403, body: { code: 'password_expired' } });
    expect((await server.request('GET', '/api/me', { token })).body.password_expired).toBe(true);

    const weak = await server.request('POST', '/api/password', { token, body: { old_password: userPassword, new_password: 'expiring-2026' } });
    expect(weak).toMatchObject({ status: 400, body: { new_password: ['The password is too similar to the username.'] } });
    const wrongOld = await server.request('POST', '/api/password', { token, body: { old_password: 'guess', new_password: 'a fresh long passphrase' } });
    expect(wrongOld).toMatchObject({ status: 400, body: { old_password: ['Wrong password.'] } });
    const changed = await server.request('POST', '/api/password', { token, body: { old_password: userPassword, new_password: 'a fresh long passphrase' } });
    expect(changed.status).toBe(200);
    expect(changed.body.password_expired).toBeUndefined();
    expect((await server.request('GET', '/users/users', { token: changed.body.access })).status).toBe(200);
    expect(user.id).toBeGreaterThan(0);
  });

  it('exchanges an API token for an access token until the token is revoked', async () => {
    const created = await server.request('POST', '/api/tokens', { token: server.adminToken, body: { name: 'export script', expires_in_days: 30 } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^cgt_/);
    const listed = await server.request('GET', '/api/tokens', { token: server.adminToken });
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, name: 'export script' })]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);

    const exchanged = await server.request('POST', '/api/token/token', { body: { token: created.body.token } });
    expect((await server.request('GET', '/api/me', { token: exchanged.body.access })).body.username).toBe('admin');
    expect((await server.request('DELETE', `/api/tokens/${created.body.id}`, { token: server.adminToken })).status).toBe(204);
    expect(await server.request('POST', '/api/token/token', { body: { token: created.body.token } })).toMatchObject({ status: 401, body: { code: 'invalid_api_token' } });
  });

  it('rejects expired, forged and malformed access tokens with 401', async () => {
    const claims = { user_id: 1, company_id: 1, username: 'admin', adapters: ['*'] };
    const expired = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(server.context.keys.tokenSigningKey);
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('another key entirely'));
    for (const token of [expired, forged, 'not-a-jwt']) {
      expect(await server.request('GET', '/api/me', { token })).toMatchObject({ status: 401, body: { code: 'token_not_valid' } });
    }
    expect(await server.request('GET', '/api/me')).toMatchObject({ status: 401, body: { code: 'not_authenticated' } });
  });

  it('carries the expiry, company and permitted adapters in the access token', async () => {
    const [, payload] = server.adminToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ user_id: 1, company_id: 1, username: 'admin', adapters: ['*'], sub: '1' });
    expect(claims.exp - claims.iat).toBe(server.config.accessTokenTtlSeconds);
  });

  it('answers LDAP sign-in with a clear reason while LDAP is not configured', async () => {
    const answer = await server.request('POST', '/api/token/ldap', { body: { username: 'admin', password: adminPassword } });
    expect(answer).toMatchObject({ status: 400, body: { code: 'ldap_not_configured' } });
    expect(answer.body.detail).toMatch(/not configured/);
  });

  it('records every sign-in attempt and mutation as an activity', async () => {
    const rows = await server.context.db.query<{ action: string; username: string; result: string }>('select action, username, result from activities order by id');
    expect(rows).toContainEqual({ action: 'token.obtain', username: 'admin', result: 'success' });
    expect(rows).toContainEqual({ action: 'token.obtain', username: 'nobody-at-all', result: 'failure' });
    expect(rows).toContainEqual({ action: 'users.create', username: 'admin', result: 'success' });
  });
});

describe('sign-in rate limit', () => {
  it('answers 429 once an address exceeds the per-minute limit of the token endpoints', async () => {
    const server = await startTestServer('pglite', { signInRateLimitPerMinute: 3 });
    try {
      // The harness already signed in once.
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await server.request('POST', '/api/token', { body: { username: 'admin', password: 'x' } })).status);
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await server.stop();
    }
  });
});
