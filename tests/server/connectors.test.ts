import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteRecords } from '../../src/server/connectors/remoteFetch.js';
import { engines, startTestServer, userPassword, type TestServer } from './harness.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const hello = { version: '9.9.9', host: 'collector-01' };

describe.each(engines)('remote connectors on %s', (engine) => {
  let server: TestServer;
  let tokenB: string;
  let plantConnector: number;

  const agent = (method: string, url: string, token: string, body?: unknown) => server.request(method, url, { headers: bearer(token), body });
  const createConnector = async (name: string, token = server.adminToken) => {
    const created = await server.request('POST', '/connectors/connectors', { token, body: { name, description: 'near the plant' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: number; token: string };
  };
  const addConnection = async (name: string, connector: number, source: object) => {
    const created = await server.request('POST', '/adapters/connections', {
      token: server.adminToken,
      body: { adapter: 'jsonfile', name, connector, option_connections: [{ name: 'source', typed_value: source }, { name: 'entity', typed_value: 'device' }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as number;
  };
  const runDiscovery = async () => {
    expect((await server.request('POST', '/discoveries/discoveries', { token: server.adminToken })).status).toBe(202);
    const [row] = await server.context.db.query<{ id: number }>('select max(id)::int as id from discoveries');
    return row.id;
  };
  const waitForJob = async (connectorToken: string) => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const leased = await agent('POST', '/connectors/api/jobs/lease', connectorToken, hello);
      expect(leased.status).toBe(200);
      if (leased.body.job) return leased.body.job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no job was queued for the connector');
  };
  const waitForDiscovery = async () => {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const last = await server.request('GET', '/discoveries/last', { token: server.adminToken });
      if (last.body.status !== 1) return last.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('discovery did not finish');
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Company B' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'b.admin', password: userPassword } });
    tokenB = await server.signIn('b.admin', userPassword);
  });
  afterAll(() => server.stop());

  it('shows the token once and keeps only its SHA-256', async () => {
    const created = await createConnector('Plant Lyon');
    expect(created.token).toMatch(/^cgc_\d+_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ kind: 'remote', token_state: 'active', description: 'near the plant', connection_count: 0 });
    const [stored] = await server.context.db.query<Record<string, unknown>>('select * from connectors where id = $1', [created.id]);
    expect(stored.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(created.token.replace(/^cgc_\d+_/, ''));
    const read = await server.request('GET', `/connectors/connectors/${created.id}`, { token: server.adminToken });
    expect(read.body).not.toHaveProperty('token');
    expect(read.body).not.toHaveProperty('token_hash');
    const list = await server.request('GET', '/connectors/connectors', { token: server.adminToken });
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    expect(list.body.results.map((row: { name: string; kind: string }) => [row.name, row.kind])).toEqual([['Default', 'local'], ['Plant Lyon', 'remote']]);
  });

  it('records what a connector says about itself, and refuses missing, malformed, wrong, rotated and revoked tokens', async () => {
    const { id, token } = await createConnector('Branch office');
    const beat = await agent('POST', '/connectors/api/heartbeat', token, { ...hello, error: 'proxy unreachable' });
    expect(beat.status).toBe(200);
    expect((await server.request('GET', `/connectors/connectors/${id}`, { token: server.adminToken })).body).toMatchObject({
      version: '9.9.9', host: 'collector-01', last_seen_at: expect.any(String), last_error: 'proxy unreachable', error_count: 1,
    });
    expect((await server.request('POST', '/connectors/api/heartbeat', { body: hello })).status).toBe(401);
    expect((await agent('POST', '/connectors/api/heartbeat', 'not-a-token', hello)).status).toBe(401);
    expect((await agent('POST', '/connectors/api/heartbeat', `cgc_${id}_${'A'.repeat(43)}`, hello)).status).toBe(401);
    // A user's session token is not a connector token.
    expect((await agent('POST', '/connectors/api/heartbeat', server.adminToken, hello)).status).toBe(401);

    const rotated = await server.request('POST', `/connectors/connectors/${id}/rotate`, { token: server.adminToken });
    expect(rotated.body.token).toMatch(/^cgc_/);
    expect((await agent('POST', '/connectors/api/heartbeat', token, hello)).status).toBe(401);
    expect((await agent('POST', '/connectors/api/jobs/lease', rotated.body.token, hello)).status).toBe(200);

    const revoked = await server.request('POST', `/connectors/connectors/${id}/revoke`, { token: server.adminToken });
    expect(revoked.body).toMatchObject({ token_state: 'revoked' });
    const replayed = await agent('POST', '/connectors/api/jobs/lease', rotated.body.token, hello);
    expect(replayed.status).toBe(401);
    expect(replayed.body.code).toBe('token_not_valid');
    // The administrator's changes are activities; a connector's machine traffic is not.
    const actions = await server.context.db.query<{ action: string }>("select action from activities where action like 'connector%'");
    expect(new Set(actions.map((row) => row.action))).toEqual(new Set(['connectors.create', 'connectors.rotate', 'connectors.revoke']));
  });

  it('refuses bad input with field errors and leaves the Default connector alone', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 'ok', token: 'mine' }, { name: 'ok', description: 7 }]) {
      const answer = await server.request('POST', '/connectors/connectors', { token: server.adminToken, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const duplicate = await server.request('POST', '/connectors/connectors', { token: server.adminToken, body: { name: 'plant lyon' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.name).toBeDefined();
    const [fallback] = await server.context.db.query<{ id: number }>('select id from connectors where company_id = 1 and is_default');
    expect((await server.request('PUT', `/connectors/connectors/${fallback.id}`, { token: server.adminToken, body: { name: 'Mine' } })).status).toBe(400);
    expect((await server.request('POST', `/connectors/connectors/${fallback.id}/rotate`, { token: server.adminToken })).status).toBe(400);
    expect((await server.request('DELETE', `/connectors/connectors/${fallback.id}`, { token: server.adminToken })).status).toBe(400);
    expect((await server.request('GET', '/connectors/connectors/abc', { token: server.adminToken })).status).toBe(400);
  });

  it('keeps connectors inside their company', async () => {
    const { id, token } = await createConnector('Company A only');
    for (const [method, url, body] of [['GET', '', undefined], ['PUT', '', { name: 'Taken' }], ['POST', '/rotate', undefined], ['POST', '/revoke', undefined], ['DELETE', '', undefined]] as const) {
      expect((await server.request(method, `/connectors/connectors/${id}${url}`, { token: tokenB, body })).status, `${method} ${url}`).toBe(404);
    }
    const listB = await server.request('GET', '/connectors/connectors', { token: tokenB });
    expect(listB.body.results.map((row: { name: string }) => row.name)).toEqual(['Default']);
    // Company B cannot put its connection on company A's connector.
    const assigned = await server.request('POST', '/adapters/connections', {
      token: tokenB,
      body: { adapter: 'jsonfile', name: 'B file', connector: id, option_connections: [{ name: 'source', typed_value: { source_type: 'url', file_url: 'https://b.example.com/d.json' } }, { name: 'entity', typed_value: 'device' }] },
    });
    expect(assigned.status).toBe(400);
    expect(assigned.body.connector).toBeDefined();
    // Company A's connector token reaches no job of another connector.
    const other = await createConnector('Other connector');
    expect((await agent('POST', '/connectors/api/jobs/1/records', token, { attempt: 1, sequence: 1, records: [] })).status).toBe(409);
    expect((await agent('POST', '/connectors/api/jobs/1/finish', other.token, { attempt: 1, state: 'done' })).status).toBe(409);
  });

  it('fetches an assigned connection through the connector, secrets sent only in its lease, records validated', async () => {
    const connector = await createConnector('Datacentre B');
    plantConnector = connector.id;
    const source = { source_type: 'url', file_url: 'https://files.plant.example/devices.json', authorization_header: 'Bearer vendor-secret' };
    const connectionId = await addConnection('Plant devices', connector.id, source);
    const [sealed] = await server.context.db.query<{ config: { source: { authorization_header: string } } }>('select config from connections where id = $1', [connectionId]);
    expect(sealed.config.source.authorization_header).not.toContain('vendor-secret');
    expect((await server.request('DELETE', `/connectors/connectors/${connector.id}`, { token: server.adminToken })).status).toBe(409);

    await runDiscovery();
    const job = await waitForJob(connector.token);
    expect(job).toMatchObject({ attempt: 1, connection: { id: connectionId, adapter: 'jsonfile' }, config: { source, entity: 'device' } });
    const url = `/connectors/api/jobs/${job.id}`;
    // A heartbeat renews the leases of the jobs the connector says it runs, and only those.
    expect((await agent('POST', '/connectors/api/heartbeat', connector.token, { ...hello, running: [job.id] })).body.jobs).toEqual([{ id: job.id, attempt: 1 }]);
    expect((await agent('POST', '/connectors/api/heartbeat', connector.token, { ...hello, running: [] })).body.jobs).toEqual([]);
    expect((await agent('POST', '/connectors/api/heartbeat', connector.token, { ...hello, running: ['x'] })).status).toBe(400);
    const device = (index: number) => ({ entity: 'device', fields: { Hostname: `plant-${index}`, SerialNumber: `PL-${index}` }, raw: { name: `plant-${index}` } });

    // Hostile or malformed batches are refused whole.
    for (const body of [
      { attempt: job.attempt, sequence: 1, records: [{ entity: 'spaceship', fields: {} }] },
      { attempt: job.attempt, sequence: 1, records: [{ entity: 'device' }] },
      { attempt: job.attempt, sequence: 1, records: Array.from({ length: 501 }, (_, index) => device(index)) },
      { attempt: job.attempt, records: [device(1)] },
      { attempt: job.attempt, sequence: 1, records: [device(1)], extra: true },
    ]) {
      expect((await agent('POST', `${url}/records`, connector.token, body)).status).toBe(400);
    }
    expect((await agent('POST', `${url}/records`, connector.token, { attempt: job.attempt, sequence: 1, records: [{ ...device(1), raw: 'x'.repeat(1_100_000) }] })).status).toBe(413);
    expect((await agent('POST', `${url}/records`, connector.token, { attempt: job.attempt + 1, sequence: 1, records: [device(1)] })).status).toBe(409);
    expect((await agent('POST', `${url}/records`, connector.token, { attempt: job.attempt, sequence: 2, records: [device(1)] })).status).toBe(409);

    expect((await agent('POST', `${url}/records`, connector.token, { attempt: job.attempt, sequence: 1, records: [device(1), device(2)], warnings: ['row 3 skipped'] })).body).toEqual({ accepted: 2 });
    // The same batch sent again (its answer was lost) is not stored twice.
    expect((await agent('POST', `${url}/records`, connector.token, { attempt: job.attempt, sequence: 1, records: [device(1), device(2)] })).body).toMatchObject({ accepted: 0 });
    expect((await agent('POST', `${url}/records`, connector.token, { attempt: job.attempt, sequence: 2, records: [device(3)] })).status).toBe(200);
    expect((await agent('POST', `${url}/finish`, connector.token, { attempt: job.attempt, state: 'done' })).status).toBe(204);

    const done = await waitForDiscovery();
    expect(done.state).toBe('done');
    expect(done.progress.connections.find((row: { id: number }) => row.id === connectionId)).toMatchObject({ state: 'warning', records: 3, warnings: ['row 3 skipped'] });
    const devices = await server.request('POST', '/devices/devices', { token: server.adminToken, body: { query: 'Hostname = plant-*', fields: ['Hostname'], ordering: [{ field: 'Hostname' }] } });
    expect(devices.body.results.map((row: { Hostname: string | string[] }) => [row.Hostname].flat()[0])).toEqual(['plant-1', 'plant-2', 'plant-3']);
    // The job is gone with its discovery's wait: the connector is refused if it sends more.
    expect((await agent('POST', `${url}/records`, connector.token, { attempt: job.attempt, sequence: 3, records: [device(4)] })).status).toBe(409);
    expect((await server.context.db.query('select 1 from connector_jobs where id = $1', [job.id])).length).toBe(0);
  });

  it('fails only the connection whose connector reports a failure', async () => {
    const connector = await createConnector('Flaky site');
    const connectionId = await addConnection('Flaky devices', connector.id, { source_type: 'url', file_url: 'https://flaky.example/d.json' });
    await runDiscovery();
    // Two jobs may be waiting (this connection and the one of the earlier test's connector); this connector sees its own.
    const job = await waitForJob(connector.token);
    expect(job.connection.id).toBe(connectionId);
    await agent('POST', `/connectors/api/jobs/${job.id}/finish`, connector.token, { attempt: job.attempt, state: 'error', error: 'HTTP 401 from the file server' });
    // The earlier test's connector answers its own job with records, so the discovery can end.
    const rotated = await server.request('POST', `/connectors/connectors/${plantConnector}/rotate`, { token: server.adminToken });
    const plantJob = await waitForJob(rotated.body.token);
    await agent('POST', `/connectors/api/jobs/${plantJob.id}/records`, rotated.body.token, { attempt: plantJob.attempt, sequence: 1, records: [{ entity: 'device', fields: { Hostname: 'plant-1' } }] });
    await agent('POST', `/connectors/api/jobs/${plantJob.id}/finish`, rotated.body.token, { attempt: plantJob.attempt, state: 'done' });
    const done = await waitForDiscovery();
    expect(done.state).toBe('done');
    const states = Object.fromEntries(done.progress.connections.map((row: { name: string; state: string; error: string; records: number }) => [row.name, [row.state, row.error ?? '', row.records]]));
    expect(states).toEqual({ 'Plant devices': ['done', '', 1], 'Flaky devices': ['error', 'HTTP 401 from the file server', 0] });
    expect((await server.request('GET', `/connectors/connectors/${connector.id}`, { token: server.adminToken })).body).toMatchObject({ error_count: 1, last_error: `Connection ${connectionId}: HTTP 401 from the file server` });
  });

  it('fails the fetches waiting for a connector whose token is revoked, at once', async () => {
    await server.context.db.query('update connections set enabled = false');
    const connector = await createConnector('Revoked site');
    const connectionId = await addConnection('Revoked devices', connector.id, { source_type: 'url', file_url: 'https://revoked.example/d.json' });
    const discoveryId = await runDiscovery();
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if ((await server.context.db.query('select 1 from connector_jobs where connection_id = $1 and discovery_id = $2', [connectionId, discoveryId])).length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await server.request('POST', `/connectors/connectors/${connector.id}/revoke`, { token: server.adminToken })).status).toBe(200);
    const done = await waitForDiscovery();
    expect(done.progress.connections).toEqual([expect.objectContaining({ name: 'Revoked devices', state: 'error', error: "The connector's token was revoked." })]);
    await server.context.db.query('update connections set enabled = true');
  });

  it('stops waiting for a connector that never answers, with a message that says so', async () => {
    const [row] = await server.context.db.query<{ connector: number; connection: number; discovery: number }>(
      "select k.id as connector, c.id as connection, (select max(id)::int from discoveries) as discovery from connectors k join connections c on c.connector_id = k.id where k.name = 'Flaky site'",
    );
    const records = remoteRecords(server.context.db, { companyId: 1, connectorId: row.connector, connectorName: 'Flaky site', connectionId: row.connection, discoveryId: row.discovery }, AbortSignal.timeout(700), () => undefined);
    await expect(records.next()).rejects.toThrow('The connector "Flaky site" did not pick up the fetch in time: is it running and able to reach Cartograph?');
    expect((await server.context.db.query('select 1 from connector_jobs where connection_id = $1 and discovery_id = $2', [row.connection, row.discovery])).length).toBe(0);
  });
});
