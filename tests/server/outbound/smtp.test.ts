import { loopbackAllowed } from '../../support/outbound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSmtpSettings, loadSmtpSettings, MailNotConfiguredError, saveSmtpSettings, sendCompanyMail, sendMail, smtpSettingsKind, type SmtpSettings } from '../../../src/server/outbound/smtp.js';
import { maskedSecret } from '../../../src/server/auth/secretFields.js';
import { issueCertificate } from '../../support/testCertificates.js';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtpServer.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

const authority = issueCertificate({ commonName: 'Mail Test CA', isCa: true }, null);
const serverCertificate = issueCertificate({ commonName: 'localhost', altNames: ['DNS:localhost', 'IP:127.0.0.1'] }, authority);

const settingsFor = (port: number, change: Partial<SmtpSettings> = {}): SmtpSettings => ({
  ...defaultSmtpSettings, enabled: true, host: '127.0.0.1', port, security: 'none', from: 'cartograph@example.test', ...change,
});

describe('sending mail through a real SMTP server', () => {
  const servers: TestSmtpServer[] = [];
  afterAll(async () => { await Promise.all(servers.map((server) => server.close())); });
  const start = async (...options: Parameters<typeof startSmtpServer>) => { const server = await startSmtpServer(...options); servers.push(server); return server; };

  it('delivers a message with an attachment in plain SMTP', async () => {
    const server = await start();
    const receipt = await sendMail(settingsFor(server.port), {
      to: ['ops@example.test', 'sec@example.test'], subject: 'Devices without EDR', text: '3 devices',
      attachments: [{ filename: 'devices.csv', content: 'Host name\nws-001\n', contentType: 'text/csv' }],
    }, loopbackAllowed);
    expect(receipt.accepted).toEqual(['ops@example.test', 'sec@example.test']);
    expect(server.messages).toHaveLength(1);
    expect(server.messages[0].from).toBe('cartograph@example.test');
    expect(server.messages[0].raw).toMatch(/^Subject: Devices without EDR/m);
    expect(server.messages[0].raw).toMatch(/filename=devices\.csv/);
  });

  it('upgrades with STARTTLS, trusts the configured CA and authenticates', async () => {
    const server = await start({ tls: { ...serverCertificate, implicit: false }, credentials: { username: 'mailer', password: 's3cret' } });
    await sendMail(settingsFor(server.port, { security: 'starttls', ca_certificate: authority.cert, username: 'mailer', password: 's3cret', host: 'localhost' }), { to: ['a@example.test'], subject: 'hello', text: 'x' }, loopbackAllowed);
    expect(server.messages[0].user).toBe('mailer');
  });

  it('speaks TLS from the first byte and refuses a server whose CA it does not know', async () => {
    const server = await start({ tls: { ...serverCertificate, implicit: true } });
    await sendMail(settingsFor(server.port, { security: 'tls', ca_certificate: authority.cert, host: 'localhost' }), { to: ['a@example.test'], subject: 'tls', text: 'x' }, loopbackAllowed);
    expect(server.messages).toHaveLength(1);
    await expect(sendMail(settingsFor(server.port, { security: 'tls', host: 'localhost' }), { to: ['a@example.test'], subject: 'tls', text: 'x' }, loopbackAllowed)).rejects.toThrow(/certificate/i);
  });

  it('says why when the password is wrong or the server refuses every recipient', async () => {
    const server = await start({ credentials: { username: 'mailer', password: 's3cret' }, refuse: ['nobody@example.test'] });
    await expect(sendMail(settingsFor(server.port, { username: 'mailer', password: 'wrong' }), { to: ['a@example.test'], subject: 's', text: 'x' }, loopbackAllowed)).rejects.toThrow(/Invalid username or password/);
    await expect(sendMail(settingsFor(server.port, { username: 'mailer', password: 's3cret' }), { to: ['nobody@example.test'], subject: 's', text: 'x' }, loopbackAllowed)).rejects.toThrow(/No such mailbox/);
  });
});

describe.each(engines)('SMTP settings on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(engine); });
  afterAll(async () => { await server?.stop(); });

  it('seals the password at rest, masks it in answers and keeps it when the form answers it masked', async () => {
    const { db, keys } = server.context;
    const answered = await saveSmtpSettings(db, keys.secretsKey, 1, settingsFor(2525, { username: 'mailer', password: 'correct horse' }));
    expect(answered.password).toBe(maskedSecret);
    const [row] = await db.query<{ document: SmtpSettings }>('select document from resources where kind = $1 and company_id = 1', [smtpSettingsKind]);
    expect(row.document.password).not.toContain('correct horse');
    await saveSmtpSettings(db, keys.secretsKey, 1, { ...answered, from: 'inventory@example.test' });
    const opened = await loadSmtpSettings(db, keys.secretsKey, 1);
    expect(opened).toMatchObject({ from: 'inventory@example.test', password: 'correct horse' });
    // Another port is another destination: the masked password does not follow it (tests/server/secretDestinations.test.ts).
    await expect(saveSmtpSettings(db, keys.secretsKey, 1, { ...answered, port: 2526 })).rejects.toThrow(/Re-enter the password to send it to a new address/);
  });

  it('refuses to send for a company without SMTP configured', async () => {
    const [other] = await server.context.db.query<{ id: number }>("insert into companies (name) values ('No Mail Ltd') returning id");
    await expect(sendCompanyMail(server.context.db, server.context.keys.secretsKey, other.id, { to: ['a@example.test'], subject: 's', text: 'x' }, loopbackAllowed)).rejects.toBeInstanceOf(MailNotConfiguredError);
  });
});
