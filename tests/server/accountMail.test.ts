import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAccountMail } from '../../src/server/identity/accountMail.js';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtpServer.js';
import { engines, startTestServer, userPassword, type TestServer } from './harness.js';

describe.each(engines)('account notices by e-mail on %s', (engine) => {
  let server: TestServer;
  let mail: TestSmtpServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
    mail = await startSmtpServer();
  });
  afterAll(async () => {
    await server?.stop();
    await mail?.close();
  });

  /** Waits for the queued notice to reach the loopback SMTP server; the test's own timeout bounds the wait. */
  const mailTo = async (address: string, count = 1): Promise<ReceivedMail[]> => {
    for (;;) {
      const received = mail.messages.filter((message) => message.to.includes(address));
      if (received.length >= count) return received;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const smtpPage = { enabled: true, host: '127.0.0.1', port: 0, security: 'none', username: '', password: '', from: 'cartograph@example.test', ca_certificate: '', verify_certificate: true };

  it('sends nothing while the company has no SMTP configuration, and the change is made', async () => {
    const created = await server.request('POST', '/users/users', { token: server.adminToken, body: { username: `early-${engine}`, email: 'early@example.test', password: userPassword } });
    expect(created.status).toBe(201);
    expect(await sendAccountMail(server.context, { companyId: 1, userId: created.body.id, kind: 'account_created', by: 'admin', at: new Date().toISOString() })).toBe(false);
    expect(mail.messages).toHaveLength(0);
  });

  it('tells a new user their account exists, and a user whose password an administrator changed, never with the password', async () => {
    const token = server.adminToken;
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...smtpPage, port: mail.port } })).status).toBe(200);
    const created = await server.request('POST', '/users/users', { token, body: { username: `sam-${engine}`, email: `sam-${engine}@example.test`, first_name: 'Sam', password: userPassword } });
    expect(created.status).toBe(201);
    const [welcome] = await mailTo(`sam-${engine}@example.test`);
    expect(welcome.raw).toMatch(/^Subject: Your Cartograph account$/m);
    expect(welcome.raw).toContain(`sam-${engine}`);
    expect(welcome.raw).toContain('admin');

    const newPassword = 'Unique-Reset-Passphrase-9137';
    expect((await server.request('PATCH', `/users/users/${created.body.id}`, { token, body: { password: newPassword } })).status).toBe(200);
    const [, reset] = await mailTo(`sam-${engine}@example.test`, 2);
    expect(reset.raw).toMatch(/^Subject: Your Cartograph password was changed$/m);
    for (const message of [welcome, reset]) {
      expect(message.raw).not.toContain(newPassword);
      expect(message.raw).not.toContain(userPassword);
    }
    // An edit that leaves the password alone tells no one.
    expect((await server.request('PATCH', `/users/users/${created.body.id}`, { token, body: { last_name: 'Sample' } })).status).toBe(200);
    const quiet = await server.request('POST', '/users/users', { token, body: { username: `noaddress-${engine}`, password: userPassword } });
    expect(quiet.status).toBe(201);
    // The welcome of a later user with an address arrives; nothing more reached Sam, and nothing went to no address.
    await server.request('POST', '/users/users', { token, body: { username: `last-${engine}`, email: `last-${engine}@example.test` } });
    await mailTo(`last-${engine}@example.test`);
    expect(mail.messages.filter((message) => message.to.includes(`sam-${engine}@example.test`))).toHaveLength(2);
    expect(mail.messages.every((message) => message.to.length === 1 && message.to[0].endsWith('@example.test'))).toBe(true);
  });

  it('logs a notice the mail server refuses in the system log', async () => {
    const token = server.adminToken;
    // Nothing listens on port 1 of the loopback address.
    expect((await server.request('PUT', '/configurations/smtp-configuration', { token, body: { ...smtpPage, port: 1 } })).status).toBe(200);
    const created = await server.request('POST', '/users/users', { token, body: { username: `unlucky-${engine}`, email: `unlucky-${engine}@example.test` } });
    expect(created.status).toBe(201);
    for (;;) {
      const [event] = await server.context.db.query<{ message: string; detail: { user_id: number } }>("select message, detail from system_log where event = 'account_mail_failed' order by id desc limit 1");
      if (event) {
        expect(event.detail.user_id).toBe(created.body.id);
        expect(event.message).toContain(`unlucky-${engine}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
