import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSecrets } from '../../../src/server/auth/secretFields.js';
import { defaultSmtpSettings, saveSmtpSettings } from '../../../src/server/outbound/smtp.js';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtpServer.js';
import { startSyslogReceiver } from '../../support/syslogReceiver.js';
import { engines, type TestServer } from '../harness.js';
import { createAction, runAction, startLabServer } from './actionFixtures.js';

type Call = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

/** A local HTTP server answering vendor-shaped bodies (Jira issues, ServiceNow table records, chat webhooks). */
async function startVendor(answer: (call: Call, count: number) => { status: number; body: object | string }) {
  const calls: Call[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (part) => (body += part));
    request.on('end', () => {
      const call = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      calls.push(call);
      const reply = answer(call, calls.length);
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const linux = { entity: 'device', query: 'OS.Type = Linux' };

describe.each(engines)('action types against local counterparts on %s', (engine) => {
  let server: TestServer;
  let token: string;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    server = await startLabServer(engine, 8);
    token = server.adminToken;
    smtp = await startSmtpServer();
  }, 120_000);
  afterAll(async () => {
    await server.stop();
    await smtp.close();
  });

  const addConnection = async (adapter: string, config: object) => {
    const secretFields = server.context.adapters.catalogue.get(adapter)!.secretFields;
    const [row] = await server.context.db.query<{ id: number }>(
      "insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3) returning id",
      [adapter, `${adapter} tickets`, JSON.stringify(sealSecrets(server.context.keys.secretsKey, config as Record<string, unknown>, secretFields))],
    );
    return row.id;
  };

  it('mails the assets as a table and as a CSV file through the SMTP configuration', async () => {
    const table = await createAction(server, { name: 'Mail table', trigger: 'manual', scope: linux, type: 'email', parameters: { recipients: ['soc@example.test'], subject: '{{count}} Linux hosts', format: 'table', fields: ['Hostname', 'IpAddresses'] } });
    const unconfigured = await runAction(server, table);
    expect(unconfigured.run.failed).toBe(4);
    expect(unconfigured.results[0].detail).toMatch(/SMTP|mail/i);

    await saveSmtpSettings(server.context.db, server.context.keys.secretsKey, 1, { ...defaultSmtpSettings, enabled: true, host: '127.0.0.1', port: smtp.port, security: 'none', from: 'cartograph@example.test' });
    expect((await runAction(server, table)).run).toMatchObject({ succeeded: 4, failed: 0 });
    const mail = smtp.messages.at(-1)!;
    expect(mail.to).toEqual(['soc@example.test']);
    expect(mail.raw).toContain('Subject: 4 Linux hosts');
    expect(mail.raw).toContain('host-00006');

    const csv = await createAction(server, { name: 'Mail CSV', trigger: 'manual', scope: linux, type: 'email', parameters: { recipients: ['soc@example.test'], subject: 'CSV', format: 'csv', fields: ['Hostname', 'OS.Type'] } });
    expect((await runAction(server, csv)).run.succeeded).toBe(4);
    const attached = smtp.messages.at(-1)!.raw;
    expect(attached).toContain('filename=assets.csv');
    const encoded = /filename=assets\.csv[\s\S]*?\r\n\r\n([\s\S]*?)\r\n--/.exec(attached)![1];
    expect(Buffer.from(encoded.replace(/\s/g, ''), 'base64').toString()).toBe('Hostname,OS.Type\r\nhost-00000,Linux\r\nhost-00002,Linux\r\nhost-00004,Linux\r\nhost-00006,Linux\r\n');
  });

  it('sends one syslog event per asset over TCP (RFC 5424) and UDP (CEF)', async () => {
    for (const [transport, format] of [['tcp', 'rfc5424'], ['udp', 'cef']] as const) {
      const receiver = await startSyslogReceiver(transport);
      try {
        const id = await createAction(server, { name: `Syslog ${transport}`, trigger: 'manual', scope: linux, type: 'syslog', parameters: { host: '127.0.0.1', port: receiver.port, transport, format, severity: 4, message_template: 'Linux host {{Hostname}}' } });
        expect((await runAction(server, id)).run.succeeded).toBe(4);
        const lines = await receiver.waitFor(4);
        expect(lines.join('\n')).toContain('Linux host host-00000');
        expect(lines[0]).toContain(format === 'cef' ? 'CEF:0|Cartograph' : '<132>1 ');
      } finally {
        await receiver.close();
      }
    }
  });

  it('posts Slack and Teams messages to their incoming webhooks', async () => {
    const vendor = await startVendor(() => ({ status: 200, body: 'ok' }));
    try {
      for (const platform of ['slack', 'teams']) {
        const id = await createAction(server, { name: `Chat ${platform}`, trigger: 'manual', scope: linux, type: 'chat', parameters: { platform, webhook_url: `${vendor.base}/services/T0/B0/secret`, heading: '{{count}} Linux hosts', line_template: '• {{Hostname}}' } });
        expect((await runAction(server, id)).run.succeeded).toBe(4);
        const read = await server.request('GET', `/actions/actions/${id}`, { token });
        expect(read.body.parameters.webhook_url).toBe('**********');
      }
      const [slack, teams] = vendor.calls.map((call) => JSON.parse(call.body));
      expect(slack.text).toBe('4 Linux hosts\n• host-00000\n• host-00002\n• host-00004\n• host-00006');
      expect(teams).toMatchObject({ '@type': 'MessageCard', summary: '4 Linux hosts' });
    } finally {
      await vendor.close();
    }
  });

  it('opens one Jira issue and one ServiceNow incident per asset, never twice', async () => {
    const jira = await startVendor((_call, count) => ({ status: 201, body: { id: String(10000 + count), key: `SEC-${count}` } }));
    const servicenow = await startVendor((_call, count) => ({ status: 201, body: { result: { sys_id: `sys${count}`, number: `INC00${count}` } } }));
    try {
      const jiraConnection = await addConnection('jira', { base_url: jira.base, auth: { auth_type: 'cloud_api_token', email: 'bot@example.test', api_token: 'jira token' } });
      const id = await createAction(server, { name: 'Jira tickets', trigger: 'manual', scope: linux, type: 'ticket', parameters: { connection: jiraConnection, project_key: 'SEC', summary_template: 'Check {{Hostname}}', description_template: 'Asset {{PrimaryKey}}' } });
      const first = await runAction(server, id);
      expect(first.run).toMatchObject({ succeeded: 4, skipped: 0 });
      expect(jira.calls).toHaveLength(4);
      expect(jira.calls[0]).toMatchObject({ method: 'POST', url: '/rest/api/2/issue' });
      expect(jira.calls[0].headers.authorization).toBe(`Basic ${Buffer.from('bot@example.test:jira token').toString('base64')}`);
      expect(JSON.parse(jira.calls[0].body).fields).toMatchObject({ project: { key: 'SEC' }, issuetype: { name: 'Task' }, summary: expect.stringMatching(/^Check host-0000\d$/) });
      const second = await runAction(server, id);
      expect(second.run).toMatchObject({ succeeded: 0, skipped: 4 });
      expect(second.results[0].detail).toMatch(/^Ticket SEC-\d was opened earlier\.$/);
      expect(jira.calls).toHaveLength(4);
      expect(JSON.stringify(second.results)).not.toContain('jira token');

      const snowConnection = await addConnection('servicenow', { base_url: servicenow.base, auth: { auth_type: 'basic', username: 'svc', password: 'snow pass' } });
      const snow = await createAction(server, { name: 'ServiceNow incidents', trigger: 'manual', scope: linux, type: 'ticket', parameters: { connection: snowConnection, summary_template: 'Check {{Hostname}}', description_template: 'x' } });
      expect((await runAction(server, snow)).results.map((result) => result.detail).sort()).toEqual(['Opened INC001', 'Opened INC002', 'Opened INC003', 'Opened INC004']);
      expect(servicenow.calls[0].url).toBe('/api/now/table/incident');
      expect(JSON.parse(servicenow.calls[0].body).correlation_id).toMatch(/^cartograph:/);
      expect((await runAction(server, snow)).run.skipped).toBe(4);

      const notTicketing = await server.request('POST', '/actions/actions', { token, body: { name: 'Bad', trigger: 'manual', scope: linux, type: 'ticket', parameters: { connection: 999999, summary_template: 'x', description_template: 'x' } } });
      expect(notTicketing).toMatchObject({ status: 400, body: { 'parameters.connection': [expect.any(String)] } });
    } finally {
      await jira.close();
      await servicenow.close();
    }
  });
});
