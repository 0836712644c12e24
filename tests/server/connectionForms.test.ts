import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, type TestServer } from './harness.js';

// What the connection form promises, held by the server for any API client: the form's rules (x-rules), a test of
// an edited connection that reuses its stored secrets, and an optional secret that can be cleared.
describe.each(engines)('connection forms on the server on %s', (engine) => {
  let server: TestServer;
  let exports: Server;
  let base: string;
  const masked = '**********';

  beforeAll(async () => {
    server = await startTestServer(engine);
    // A file server that answers only with the right authorization, as an export share behind a token would.
    exports = createServer((request, response) => {
      if (request.headers.authorization !== 'Bearer export-token') return void response.writeHead(401).end();
      response.writeHead(200, { 'content-type': 'text/csv' }).end('hostname,serial\nweb-01,SRV123\n');
    });
    await new Promise<void>((resolve) => exports.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(exports.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => exports.close(() => resolve()));
    await server.stop();
  });

  const csvOptions = (source: Record<string, unknown>) => [
    { name: 'source', typed_value: source },
    { name: 'entity', typed_value: 'device' },
    { name: 'delimiter', typed_value: ',' },
    { name: 'encoding', typed_value: 'utf-8' },
  ];
  const createExportConnection = async (name: string) => {
    const created = await server.request('POST', '/adapters/connections', {
      token: server.adminToken,
      body: { adapter: 'csvfile', name, option_connections: csvOptions({ source_type: 'url', file_url: `${base}/devices.csv`, authorization_header: 'Bearer export-token' }) },
    });
    expect(created.status).toBe(201);
    return created.body.id as number;
  };
  const sourceOf = (answer: { body: { option_connections: { name: string; typed_value: Record<string, unknown> }[] } }) =>
    answer.body.option_connections.find((option) => option.name === 'source')?.typed_value;

  it("refuses what the form's rules refuse, with the form's message, on generic resources and connections", async () => {
    const query = await server.request('POST', '/queries/queries', { token: server.adminToken, body: { name: '   ', text: 'Hostname = web*' } });
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ name: ['The Name field is required.'] });
    const saved = await server.request('POST', '/queries/queries', { token: server.adminToken, body: { name: 'Web servers', text: 'Hostname = web*' } });
    expect(saved.status).toBe(201);
    // A PATCH is checked on what it sends: leaving the name out keeps it, blanking it is refused.
    expect((await server.request('PATCH', `/queries/queries/${saved.body.id}`, { token: server.adminToken, body: { text: 'Hostname = srv*' } })).status).toBe(200);
    expect((await server.request('PATCH', `/queries/queries/${saved.body.id}`, { token: server.adminToken, body: { name: ' ' } })).body).toEqual({ name: ['The Name field is required.'] });

    const connection = await server.request('POST', '/adapters/connections', {
      token: server.adminToken,
      body: { adapter: 'csvfile', name: '  ', option_connections: csvOptions({ source_type: 'url', file_url: `${base}/devices.csv` }) },
    });
    expect(connection.status).toBe(400);
    expect(connection.body).toEqual({ name: ['The Name field is required.'] });
  });

  it("tests an edited connection with its stored secret, without saving it, when the test names the connection", async () => {
    const id = await createExportConnection('Directory export');
    const edited = csvOptions({ source_type: 'url', file_url: `${base}/devices.csv?edited=1`, authorization_header: masked });
    const withStored = await server.request('POST', '/adapters/test', { token: server.adminToken, body: { adapter: 'csvfile', name: 'Directory export', connection: id, option_connections: edited } });
    expect(withStored.status).toBe(200);
    expect(withStored.body.success).toBe(true);
    // Without the connection the mask is no secret at all: the share refuses the request.
    const withoutStored = await server.request('POST', '/adapters/test', { token: server.adminToken, body: { adapter: 'csvfile', name: 'Directory export', option_connections: edited } });
    expect(withoutStored.body).toMatchObject({ success: false, reason: 'unauthorized' });
    // Nothing was saved by the test.
    const stored = await server.request('GET', `/adapters/connections/${id}`, { token: server.adminToken });
    expect(sourceOf(stored)).toEqual({ source_type: 'url', file_url: `${base}/devices.csv`, authorization_header: masked });
  });

  it("lends a connection's secrets only to a test of that connection, by someone who may change it", async () => {
    const id = await createExportConnection('Second export');
    const edited = csvOptions({ source_type: 'url', file_url: `${base}/devices.csv`, authorization_header: masked });
    const otherAdapter = await server.request('POST', '/adapters/test', { token: server.adminToken, body: { adapter: 'jsonfile', name: 'x', connection: id, option_connections: edited } });
    expect(otherAdapter.status).toBe(400);
    expect(otherAdapter.body.connection[0]).toMatch(/belongs to the adapter csvfile/);
    const missing = await server.request('POST', '/adapters/test', { token: server.adminToken, body: { adapter: 'csvfile', name: 'x', connection: 999999, option_connections: edited } });
    expect(missing.body).toEqual({ connection: ['Invalid pk "999999" - object does not exist.'] });

    const permissions = (await server.request('GET', '/users/permissions?size=1000', { token: server.adminToken })).body.results as { id: number; app: string; codename: string }[];
    const ids = permissions.filter((permission) => permission.app === 'adapters' && ['add_connection', 'view_connection'].includes(permission.codename)).map((permission) => permission.id);
    await server.request('POST', '/users/groups', { token: server.adminToken, body: { name: 'Connection makers', permissions: ids, adapters: ['*'] } });
    const maker = await createUserWithGroups(server, server.adminToken, 'connection.maker', ['Connection makers']);
    const refused = await server.request('POST', '/adapters/test', { token: maker.token, body: { adapter: 'csvfile', name: 'x', connection: id, option_connections: edited } });
    expect(refused.status).toBe(403);

    for (const [method, url] of [['POST', '/adapters/connections'], ['PUT', `/adapters/connections/${id}`]] as const) {
      const answer = await server.request(method, url, { token: server.adminToken, body: { adapter: 'csvfile', name: 'Second export', connection: id, option_connections: edited } });
      expect(answer.status, `${method} ${url}`).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['connection']);
    }
  });

  it('clears a stored optional secret that an edit leaves out', async () => {
    const id = await createExportConnection('Public export');
    const cleared = await server.request('PUT', `/adapters/connections/${id}`, {
      token: server.adminToken,
      body: { adapter: 'csvfile', name: 'Public export', option_connections: csvOptions({ source_type: 'url', file_url: `${base}/devices.csv` }) },
    });
    expect(cleared.status).toBe(200);
    expect(sourceOf(cleared)).toEqual({ source_type: 'url', file_url: `${base}/devices.csv` });
    expect((await server.request('POST', `/adapters/test/${id}`, { token: server.adminToken })).body).toMatchObject({ success: false, reason: 'unauthorized' });
  });
});
