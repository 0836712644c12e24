import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/server/config.js';
import { checkFileSource } from '../../../src/server/adapters/files/fileSource.js';
import { outboundPolicyFor } from '../../../src/server/outbound/policy.js';
import { collect, json, manifest, startServer, type TestServer as ReplayServer } from '../adapters/http/helpers.js';
import { engines, startTestServer, userPassword, type TestServer } from '../harness.js';
import { loopbackAllowed } from '../../support/outbound.js';

// The outbound policy end to end: what the default installation refuses, what is refused whatever the provider
// allows, and the provider's switch that keeps tenant companies out of private ranges.

const smtpPage = (host: string, port = 25) => ({
  enabled: true, host, port, security: 'none', username: '', password: '', from: 'cartograph@example.test', ca_certificate: '', verify_certificate: true,
});
const metadata = /169\.254\.169\.254 is a link-local or cloud-metadata address; Cartograph never calls it/;
const listStream = { name: 'items', entity: 'device' as const, request: { url: '/items' }, records: '{{ response.body.items }}', mapping: { Hostname: '{{ record.name }}' } };

describe('the installation switch for loopback', () => {
  it('is off unless CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK says 1, and a malformed value stops the start', () => {
    expect(readConfig({}).outboundAllowLoopback).toBe(false);
    expect(readConfig({ CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK: '1' }).outboundAllowLoopback).toBe(true);
    expect(() => readConfig({ CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK: 'maybe' })).toThrow(/CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK must be 1 or 0/);
  });
});

describe('metadata and link-local, whatever is allowed', () => {
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await startServer((request, response) => {
      if (request.url?.startsWith('/to-metadata')) return response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      json(response, 200, { items: [{ name: 'a' }] });
    });
  });
  afterAll(() => replay.close());

  it('refuses the literal address and a redirect to it from an allowed host, in the adapter engine and file URLs', async () => {
    const direct = manifest({ base_url: '{{ config.base_url }}', streams: [listStream] });
    await expect(collect(direct, { base_url: 'http://169.254.169.254' })).rejects.toThrow(metadata);
    await expect(collect(direct, { base_url: 'http://[fd00:ec2::254]' })).rejects.toThrow(/link-local or cloud-metadata/);
    await expect(collect(direct, { base_url: 'http://metadata.google.internal' })).rejects.toThrow(/cloud-metadata host name/);
    // The allowed host answers; its redirect to the metadata service is refused at the hop.
    expect((await collect(direct, { base_url: replay.url })).records).toHaveLength(1);
    const redirected = manifest({ base_url: '{{ config.base_url }}', streams: [{ ...listStream, request: { url: '/to-metadata' } }] });
    await expect(collect(redirected, { base_url: replay.url })).rejects.toThrow(metadata);

    const options = { dataDir: '/nonexistent', importRoots: [] };
    const file = (url: string) => checkFileSource({ source: { source_type: 'url', file_url: url } }, options, AbortSignal.timeout(10_000), loopbackAllowed);
    await expect(file(`${replay.url}/to-metadata`)).resolves.toMatchObject({ ok: false, reason: 'refused', detail: expect.stringMatching(metadata) });
    await expect(file('http://169.254.169.254/latest')).resolves.toMatchObject({ ok: false, reason: 'refused' });
  });
});

describe.each(engines)('the outbound policy of an installation on %s', (engine) => {
  let fresh: TestServer;
  let hosted: TestServer;
  beforeAll(async () => {
    // `fresh` runs with the default configuration (loopback refused); `hosted` as the tests' servers do (allowed).
    fresh = await startTestServer(engine, { outboundAllowLoopback: false });
    hosted = await startTestServer(engine);
  });
  afterAll(async () => {
    await fresh?.stop();
    await hosted?.stop();
  });

  const testMail = async (server: TestServer, token: string, host: string) => {
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: smtpPage(host) })).status).toBe(200);
    return server.request('POST', '/configurations/smtp-configuration/test', { token, body: { to: 'ops@example.test' } });
  };

  it('refuses loopback by default with a 400 naming why, and reaches it where the provider allows it', async () => {
    const refused = await testMail(fresh, fresh.adminToken, '127.0.0.1');
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/127\.0\.0\.1 is a loopback address; this installation does not allow calls to it/);
    expect((await fresh.request('GET', '/configurations/outbound-policy', { token: fresh.adminToken })).body).toEqual({ tenants_reach_private_ranges: true, loopback_allowed: false });

    // Port 9 (discard) has no listener: the guard lets the call through and the connection itself fails.
    const allowed = await hosted.request('PUT', '/configurations/smtp-configuration', { token: hosted.adminToken, body: smtpPage('127.0.0.1', 9) })
      .then(() => hosted.request('POST', '/configurations/smtp-configuration/test', { token: hosted.adminToken, body: { to: 'ops@example.test' } }));
    expect(allowed.status).toBe(400);
    expect(allowed.body.detail).not.toMatch(/loopback address/);
  });

  it('refuses the metadata service even where loopback and private ranges are allowed, as a 400', async () => {
    const mail = await testMail(hosted, hosted.adminToken, '169.254.169.254');
    expect(mail.status).toBe(400);
    expect(mail.body.detail).toMatch(metadata);
    const syslog = await hosted.request('PUT', '/configurations/syslog-configuration', { token: hosted.adminToken, body: { enabled: true, host: 'metadata.google.internal', port: 514, transport: 'udp', format: 'rfc5424', ca_certificate: '', verify_certificate: true } });
    expect(syslog.status).toBe(200);
    const sent = await hosted.request('POST', '/configurations/syslog-configuration/test', { token: hosted.adminToken });
    expect(sent.status).toBe(400);
    expect(sent.body.detail).toMatch(/metadata\.google\.internal is a cloud-metadata host name; Cartograph never calls it/);
  });

  it('lets the provider keep tenant companies out of private ranges, and only the provider change that', async () => {
    const token = hosted.adminToken;
    const company = await hosted.request('POST', '/companies/companies', { token, body: { name: 'Tenant Ltd' } });
    expect(company.status).toBe(201);
    await hosted.request('POST', `/companies/companies/${company.body.id}/administrators`, { token, body: { username: 'tenant.admin', password: userPassword } });
    const tenant = await hosted.signIn('tenant.admin', userPassword);
    const provider = (await hosted.context.db.query<{ id: number }>('select id from companies where is_constant')).map((row) => row.id)[0];
    const config = hosted.config;

    expect(await outboundPolicyFor(hosted.context.db, config, company.body.id)).toEqual({ loopback: true, privateRanges: true });
    expect((await hosted.request('PUT', '/configurations/outbound-policy', { token: tenant, body: { tenants_reach_private_ranges: true } })).status).toBe(403);
    expect((await hosted.request('PUT', '/configurations/outbound-policy', { token, body: { tenants_reach_private_ranges: 'no' } })).status).toBe(400);
    const saved = await hosted.request('PUT', '/configurations/outbound-policy', { token, body: { tenants_reach_private_ranges: false } });
    expect(saved).toMatchObject({ status: 200, body: { tenants_reach_private_ranges: false, loopback_allowed: true } });
    expect((await hosted.request('GET', '/configurations/outbound-policy', { token: tenant })).body.tenants_reach_private_ranges).toBe(false);

    expect(await outboundPolicyFor(hosted.context.db, config, company.body.id)).toEqual({ loopback: true, privateRanges: false });
    expect(await outboundPolicyFor(hosted.context.db, config, provider)).toEqual({ loopback: true, privateRanges: true });
    const refused = await testMail(hosted, tenant, '10.20.30.40');
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/10\.20\.30\.40 is a private address; the provider does not allow this company to call private ranges/);

    await hosted.request('PUT', '/configurations/outbound-policy', { token, body: { tenants_reach_private_ranges: true } });
    expect(await outboundPolicyFor(hosted.context.db, config, company.body.id)).toEqual({ loopback: true, privateRanges: true });
  });
});
