import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

const dayMs = 24 * 60 * 60 * 1000;
/** Whole days from now until an answered expiry (rounded, so a second's drift does not matter). */
const daysUntil = (expiresAt: string) => Math.round((Date.parse(expiresAt) - Date.now()) / dayMs);

describe.each(engines)('API token lifetimes on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.stop());
  const create = (body: Record<string, unknown>, token = server.adminToken) => server.request('POST', '/api/tokens', { token, body });

  it('lives 90 days unless told otherwise, never only when asked, and takes a custom end', async () => {
    const plain = await create({ name: 'default lifetime' });
    expect(plain.status).toBe(201);
    expect(daysUntil(plain.body.expires_at)).toBe(90);
    expect(daysUntil((await create({ name: 'a year', expires_in_days: 365 })).body.expires_at)).toBe(365);
    const custom = new Date(Date.now() + 10 * dayMs).toISOString();
    expect((await create({ name: 'custom end', expires_at: custom })).body.expires_at).toBe(custom);
    expect((await create({ name: 'forever', never_expires: true })).body.expires_at).toBeNull();

    expect(await create({ name: 'in the past', expires_at: new Date(Date.now() - dayMs).toISOString() })).toMatchObject({ status: 400, body: { expires_at: [expect.any(String)] } });
    expect(await create({ name: 'two answers', expires_in_days: 30, never_expires: true })).toMatchObject({ status: 400, body: { never_expires: [expect.any(String)] } });
    expect(await create({ name: 'not a date', expires_at: 'soon' })).toMatchObject({ status: 400, body: { expires_at: [expect.any(String)] } });
  });

  it("keeps to the company's maximum lifetime, which administrators set", async () => {
    const token = server.adminToken;
    expect((await server.request('GET', '/configurations/api-tokens', { token })).body).toEqual({ maximum_lifetime_days: 0 });
    const viewer = await createUserWithGroups(server, token, `token-limit-viewer-${engine}`, ['Viewers']);
    expect((await server.request('PUT', '/configurations/api-tokens', { token: viewer.token, body: { maximum_lifetime_days: 30 } })).status).toBe(403);
    expect((await server.request('PUT', '/configurations/api-tokens', { token, body: { maximum_lifetime_days: -1 } })).body).toHaveProperty('maximum_lifetime_days');
    expect(await server.request('PUT', '/configurations/api-tokens', { token, body: { maximum_lifetime_days: 30 } })).toMatchObject({ status: 200, body: { maximum_lifetime_days: 30 } });

    expect(await create({ name: 'too long', expires_in_days: 90 })).toMatchObject({ status: 400, body: { expires_in_days: ['At most 30 days in this company.'] } });
    expect(await create({ name: 'forever', never_expires: true })).toMatchObject({ status: 400, body: { never_expires: [expect.stringContaining('30 days')] } });
    expect(await create({ name: 'far end', expires_at: new Date(Date.now() + 45 * dayMs).toISOString() })).toMatchObject({ status: 400, body: { expires_at: [expect.stringContaining('30 days')] } });
    // Without a choice the token takes the default, shortened to the maximum.
    expect(daysUntil((await create({ name: 'default within the limit' })).body.expires_at)).toBe(30);
    expect((await create({ name: 'within', expires_in_days: 30 })).status).toBe(201);

    await server.request('PUT', '/configurations/api-tokens', { token, body: { maximum_lifetime_days: 0 } });
    expect((await create({ name: 'forever again', never_expires: true })).status).toBe(201);
  });

  it('refuses an expired token at exchange', async () => {
    const created = await create({ name: 'short lived', expires_in_days: 1 });
    expect((await server.request('POST', '/api/token/token', { body: { token: created.body.token } })).status).toBe(200);
    await server.context.db.query("update api_tokens set expires_at = now() - interval '1 minute' where id = $1", [created.body.id]);
    expect(await server.request('POST', '/api/token/token', { body: { token: created.body.token } })).toMatchObject({ status: 401, body: { code: 'invalid_api_token' } });
  });
});
