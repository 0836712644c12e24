import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskedSecret } from '../../src/server/auth/secretFields.js';
import { smtpSettingsKind } from '../../src/server/outbound/smtp.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js';
import { startSyslogReceiver, type TestSyslogReceiver } from '../support/syslogReceiver.js';
import { issueCertificate } from '../support/testCertificates.js';
import { adminPassword, createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

const authority = issueCertificate({ commonName: 'Syslog Test CA', isCa: true }, null);
const receiverCertificate = issueCertificate({ commonName: 'localhost', altNames: ['DNS:localhost', 'IP:127.0.0.1'] }, authority);

const smtpPage = (port: number, change: Record<string, unknown> = {}) => ({
  enabled: true, host: '127.0.0.1', port, security: 'none', username: 'mailer', password: 's3cret', from: 'cartograph@example.test', ca_certificate: '', verify_certificate: true, ...change,
});
const syslogPage = (port: number, change: Record<string, unknown> = {}) => ({
  enabled: true, host: '127.0.0.1', port, transport: 'tcp', format: 'rfc5424', ca_certificate: '', verify_certificate: true, ...change,
});

describe.each(engines)('SMTP and syslog configuration pages on %s', (engine) => {
  let server: TestServer;
  const closers: { close(): Promise<void> }[] = [];
  beforeAll(async () => { server = await startTestServer(engine); });
  afterAll(async () => {
    await server?.stop();
    await Promise.all(closers.map((closer) => closer.close()));
  });
  const smtp = async (options: Parameters<typeof startSmtpServer>[0] = {}): Promise<TestSmtpServer> => { const started = await startSmtpServer(options); closers.push(started); return started; };
  const receiver = async (...options: Parameters<typeof startSyslogReceiver>): Promise<TestSyslogReceiver> => { const started = await startSyslogReceiver(...options); closers.push(started); return started; };

  it('saves the SMTP page with the password sealed and masked, keeps it when answered masked, and sends a test e-mail', async () => {
    const mail = await smtp({ credentials: { username: 'mailer', password: 's3cret' } });
    const token = server.adminToken;
    const saved = await server.request('PUT', '/configurations/smtp-configuration', { token, body: smtpPage(mail.port) });
    expect(saved.status).toBe(200);
    expect(saved.body.password).toBe(maskedSecret);
    const [row] = await server.context.db.query<{ document: { password: string } }>('select document from resources where kind = $1 and company_id = 1', [smtpSettingsKind]);
    expect(row.document.password).not.toContain('s3cret');
    const read = await server.request('GET', '/configurations/smtp-configuration', { token });
    expect(read.body).toMatchObject({ host: '127.0.0.1', port: mail.port, password: maskedSecret });
    expect(JSON.stringify(read.body)).not.toContain('s3cret');
    // The page answers the masked password back on the next save: the stored one still authenticates.
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...read.body, from: 'Cartograph <inventory@example.test>' } })).status).toBe(200);
    const test = await server.request('POST', '/configurations/smtp-configuration/test', { token, body: { to: 'admin@example.test' } });
    expect(test.status).toBe(200);
    expect(mail.messages).toHaveLength(1);
    expect(mail.messages[0]).toMatchObject({ to: ['admin@example.test'], user: 'mailer' });
    expect(mail.messages[0].raw).toMatch(/^Subject: Cartograph test e-mail/m);
  });

  it('answers a clear error for a wrong password or an unreachable server, and field errors for a bad page', async () => {
    const mail = await smtp({ credentials: { username: 'mailer', password: 's3cret' } });
    const token = server.adminToken;
    await server.request('PUT', '/configurations/smtp-configuration', { token, body: smtpPage(mail.port, { password: 'wrong' }) });
    const refused = await server.request('POST', '/configurations/smtp-configuration/test', { token, body: { to: 'admin@example.test' } });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/could not be sent: .*Invalid username or password/);
    await mail.close();
    const unreachable = await server.request('POST', '/configurations/smtp-configuration/test', { token, body: { to: 'admin@example.test' } });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.detail).toMatch(/ECONNREFUSED|connect/i);
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: smtpPage(25, { port: 70000 }) })).body).toHaveProperty('port');
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: smtpPage(25, { host: '' }) })).body).toEqual({ host: ['This field is required when the configuration is enabled.'] });
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...smtpPage(25), extra: 1 } })).status).toBe(400);
    expect((await server.request('POST', '/configurations/smtp-configuration/test', { token, body: { to: 'not an address' } })).body).toHaveProperty('to');
  });

  it('keeps the pages to their permissions and each company to its own settings', async () => {
    const viewer = await createUserWithGroups(server, server.adminToken, `smtp-viewer-${engine}`, ['Viewers']);
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token: viewer.token, body: smtpPage(25) })).status).toBe(403);
    expect((await server.request('POST', '/configurations/syslog-configuration/test', { token: viewer.token })).status).toBe(403);
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: `Tenant ${engine}` } });
    const [other] = await server.context.db.query<{ document: object }>('select document from resources where kind = $1 and company_id = $2', [smtpSettingsKind, company.body.id]);
    expect(other).toBeUndefined();
  });

  it('forwards sign-ins and changes to the syslog receiver as RFC 5424, and a test event', async () => {
    const syslog = await receiver('tcp');
    const token = server.adminToken;
    expect((await server.request('PUT', '/configurations/syslog-configuration', { token, body: syslogPage(syslog.port) })).status).toBe(200);
    await server.request('POST', '/api/token', { body: { username: 'admin', password: 'wrong password' } });
    await server.request('POST', '/api/token', { body: { username: 'admin', password: adminPassword } });
    const tagged = await server.request('POST', '/queries/queries', { token, body: { name: `forwarded ${engine}`, text: 'Hostname = ws-1' } });
    expect(tagged.status).toBe(201);
    expect((await server.request('POST', '/configurations/syslog-configuration/test', { token })).status).toBe(200);
    // The page's save, two sign-ins, the query's creation and the test event.
    const lines = await syslog.waitFor(5);
    const failedSignIn = lines.find((line) => line.includes('token.obtain') && line.includes('result="failure"'));
    expect(failedSignIn).toMatch(/^<132>1 \S+ \S+ cartograph \d+ token\.obtain \[cartograph@32473 user="admin" action="token\.obtain"/);
    expect(lines.some((line) => line.includes('token.obtain') && line.includes('result="success"'))).toBe(true);
    expect(lines.some((line) => line.includes('target_type="queries/queries"') && line.includes('status_code="201"'))).toBe(true);
    expect(lines.some((line) => line.includes('syslog.test'))).toBe(true);
  });

  it('sends CEF over TLS to a receiver whose authority is configured, and refuses one that does not verify', async () => {
    const syslog = await receiver('tls', receiverCertificate);
    const token = server.adminToken;
    await server.request('PUT', '/configurations/syslog-configuration', { token, body: syslogPage(syslog.port, { transport: 'tls', format: 'cef', host: 'localhost' }) });
    const unverified = await server.request('POST', '/configurations/syslog-configuration/test', { token });
    expect(unverified.status).toBe(400);
    expect(unverified.body.detail).toMatch(/certificate/i);
    await server.request('PUT', '/configurations/syslog-configuration', { token, body: syslogPage(syslog.port, { transport: 'tls', format: 'cef', host: 'localhost', ca_certificate: authority.cert }) });
    expect((await server.request('POST', '/configurations/syslog-configuration/test', { token })).status).toBe(200);
    // The page's own save is forwarded too; the test event follows it.
    const lines = await syslog.waitFor(2);
    expect(lines.find((line) => line.includes('syslog.test'))).toMatch(/CEF:0\|Cartograph\|Cartograph\|[^|]+\|syslog\.test\|/);
  });

  it('never fails a request when the receiver is down', async () => {
    const syslog = await receiver('tcp');
    const token = server.adminToken;
    await server.request('PUT', '/configurations/syslog-configuration', { token, body: syslogPage(syslog.port) });
    await syslog.close();
    const created = await server.request('POST', '/queries/queries', { token, body: { name: `while down ${engine}`, text: 'Hostname = ws-2' } });
    expect(created.status).toBe(201);
    expect((await server.request('POST', '/api/token', { body: { username: 'admin', password: adminPassword } })).status).toBe(200);
    const test = await server.request('POST', '/configurations/syslog-configuration/test', { token });
    expect(test.status).toBe(400);
    expect(test.body.detail).toMatch(/ECONNREFUSED/);
    await server.request('PUT', '/configurations/syslog-configuration', { token, body: syslogPage(syslog.port, { enabled: false }) });
  });
});
