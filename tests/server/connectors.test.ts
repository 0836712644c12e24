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
    // Lease calls answer at once here; the long-poll test holds them open by raising the wait.
    server = await startTestServer(engine, { connectorLeaseWaitSeconds: 0 });
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Company B' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'b.admin', password: userPassword } });
    tokenB = await server.signIn('b.admin', userPassword);
  });
  afterAll(() => server.stop());

  const systemEvents = async (connectorId: number) =>
    (await server.context.db.query<{ event: string; level: string; message: string; detail: Record<string, unknown> }>(
      "select event, level, message, detail from system_log where detail->>'connector_id' = $1 order by id", [String(connectorId)],
    ));

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
    // Refused again and again: the system log says so once per window, not once per call.
    for (let call = 0; call < 3; call += 1) expect((await agent('POST', '/connectors/api/heartbeat', rotated.body.token, hello)).status).toBe(401);
    const events = await systemEvents(id);
    // One refusal of this connector logged (the wrong token); the rotated-away and revoked ones that followed
    // within the window were counted, not written.
    expect(events.map((row) => row.event)).toEqual(['connector_token_created', 'connector_first_seen', 'connector_token_refused', 'connector_token_rotated', 'connector_token_revoked']);
    expect(events[0]).toMatchObject({ level: 'info', message: 'Connector "Branch office": created with a new token by admin', detail: { company_id: 1, user: 'admin' } });
    expect(events[1].message).toBe('Connector "Branch office": first seen, version 9.9.9 on collector-01');
    expect(events[2]).toMatchObject({ level: 'warning', detail: { reason: 'wrong' } });
    expect(events[2].message).toContain('further refusals within 10 minutes are not logged');
    // Tokens naming no connector are counted per source address: the first of them only.
    const anonymous = await server.context.db.query<{ detail: { reason: string } }>("select detail from system_log where event = 'connector_token_refused' and not detail ? 'connector_id'");
    expect(anonymous.map((row) => row.detail.reason)).toEqual(['malformed']);
    expect(JSON.stringify(events)).not.toContain(rotated.body.token);
    // The administrator's changes are activities; a connector's machine traffic is not.
    // Activities are written once the answer is sent, so the last one may land just after the request returns.
    const actions = async () => new Set((await server.context.db.query<{ action: string }>("select action from activities where action like 'connector%'")).map((row) => row.action));
    await expect.poll(actions).toEqual(new Set(['connectors.create', 'connectors.rotate', 'connectors.revoke']));
  });

  it('logs a new version of a connector once', async () => {
    const { id, token } = await createConnector('Upgraded site');
    await agent('POST', '/connectors/api/heartbeat', token, hello);
    await Promise.all([agent('POST', '/connectors/api/heartbeat', token, { ...hello, version: '9.10.0' }), agent('POST', '/connectors/api/jobs/lease', token, { ...hello, version: '9.10.0' })]);
    await agent('POST', '/connectors/api/heartbeat', token, { ...hello, version: '9.10.0' });
    const events = await systemEvents(id);
    expect(events.map((row) => row.event)).toEqual(['connector_token_created', 'connector_first_seen', 'connector_version_changed']);
    expect(events[2]).toMatchObject({ message: 'Connector "Upgraded site": now runs version 9.10.0 (was 9.9.9) on collector-01', detail: { version: '9.10.0', previous_version: '9.9.9' } });
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
    const lost = await waitForJob(connector.token);
    expect(lost.connection.id).toBe(connectionId);
    // The first attempt's connector dies without a word: once its lease expires the job is given out again.
    await server.context.db.query("update connector_jobs set lease_expires_at = now() - interval '1 second' where id = $1", [lost.id]);
    const job = await waitForJob(connector.token);
    expect(job).toMatchObject({ id: lost.id, attempt: 2 });
    await agent('POST', `/connectors/api/jobs/${job.id}/finish`, connector.token, { attempt: job.attempt, state: 'error', error: 'HTTP 401 from the file server' });
    const events = await systemEvents(connector.id);
    expect(events.map((row) => row.event)).toEqual(['connector_token_created', 'connector_first_seen', 'connector_job_leased_again', 'connector_job_failed']);
    expect(events[2]).toMatchObject({ level: 'warning', detail: { connection_id: connectionId, attempt: 2 } });
    expect(events[3].message).toBe(`Connector "Flaky site": fetch of connection ${connectionId} failed on the connector: HTTP 401 from the file server`);
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
    const [logged] = (await systemEvents(row.connector)).filter((event) => event.event === 'connector_job_timed_out');
    expect(logged).toMatchObject({ level: 'warning', detail: { kind: 'fetch', connection_id: row.connection, discovery_id: row.discovery } });
  });

  it('tests a connection on its connector: the held lease call wakes with the test, the console gets its answer', async () => {
    const connector = await createConnector('Test site');
    const source = { source_type: 'url', file_url: 'https://test-site.example/d.json', authorization_header: 'Bearer site-secret' };
    const connectionId = await addConnection('Test site devices', connector.id, source);
    // Never seen: the console is told at once that the connector is offline, and nothing is queued.
    const offline = await server.request('POST', `/adapters/test/${connectionId}`, { token: server.adminToken });
    expect(offline.body).toMatchObject({ success: false, reason: 'connector_offline' });
    expect(offline.body.detail).toContain('"Test site" runs this connection\'s tests and is offline (never seen)');
    expect((await server.context.db.query('select 1 from connector_jobs where connector_id = $1', [connector.id])).length).toBe(0);

    expect((await agent('POST', '/connectors/api/heartbeat', connector.token, hello)).status).toBe(200);
    server.context.config.connectorLeaseWaitSeconds = 30;
    try {
      const held = agent('POST', '/connectors/api/jobs/lease', connector.token, hello);
      const tested = server.request('POST', `/adapters/test/${connectionId}`, { token: server.adminToken });
      const leased = await held;
      expect(leased.body.job).toMatchObject({ kind: 'test', attempt: 1, connection: { id: connectionId, adapter: 'jsonfile' }, config: { source, entity: 'device' } });
      // A test job takes no records.
      expect((await agent('POST', `/connectors/api/jobs/${leased.body.job.id}/records`, connector.token, { attempt: 1, sequence: 1, records: [] })).status).toBe(409);
      expect((await agent('POST', `/connectors/api/jobs/${leased.body.job.id}/finish`, connector.token, { attempt: 1, state: 'done' })).status).toBe(400);
      const result = { ok: false, reason: 'unauthorized', detail: 'HTTP 401 from test-site.example' };
      expect((await agent('POST', `/connectors/api/jobs/${leased.body.job.id}/finish`, connector.token, { attempt: 1, state: 'done', result })).status).toBe(204);
      expect((await tested).body).toEqual({ success: false, reason: 'unauthorized', detail: 'HTTP 401 from test-site.example' });
      expect((await server.request('GET', `/adapters/connections/${connectionId}`, { token: server.adminToken })).body).toMatchObject({ status: 4, test_ok: false, test_detail: 'HTTP 401 from test-site.example' });

      // Settings not saved yet, on the connector the form names: sealed in the job, opened only in its lease.
      const unsaved = server.request('POST', '/adapters/test', {
        token: server.adminToken,
        body: { adapter: 'jsonfile', name: 'Draft', connector: connector.id, option_connections: [{ name: 'source', typed_value: { ...source, authorization_header: 'Bearer draft-secret' } }, { name: 'entity', typed_value: 'device' }] },
      });
      const draft = await waitForJob(connector.token);
      const [stored] = await server.context.db.query<{ config: unknown }>('select config from connector_jobs where id = $1', [draft.id]);
      expect(JSON.stringify(stored.config)).not.toContain('draft-secret');
      expect(draft).toMatchObject({ kind: 'test', connection: { id: null }, config: { source: { authorization_header: 'Bearer draft-secret' } } });
      await agent('POST', `/connectors/api/jobs/${draft.id}/finish`, connector.token, { attempt: 1, state: 'error', error: 'no route to host' });
      expect((await unsaved).body).toMatchObject({ success: false, reason: 'connector_error', detail: 'The connector "Test site" could not run the test: no route to host' });
      expect((await server.context.db.query('select 1 from connector_jobs where connector_id = $1', [connector.id])).length).toBe(0);

      // A lease call held open when the token is revoked is refused then, not at the end of its wait.
      const heldAgain = agent('POST', '/connectors/api/jobs/lease', connector.token, hello);
      expect((await server.request('POST', `/connectors/connectors/${connector.id}/revoke`, { token: server.adminToken })).status).toBe(200);
      expect((await heldAgain).status).toBe(401);
    } finally {
      server.context.config.connectorLeaseWaitSeconds = 0;
    }
    // Company B cannot test on company A's connector.
    const foreign = await server.request('POST', '/adapters/test', {
      token: tokenB, body: { adapter: 'jsonfile', name: 'B', connector: connector.id, option_connections: [{ name: 'source', typed_value: source }, { name: 'entity', typed_value: 'device' }] },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.connector).toBeDefined();
  });

  it('tells the console when a connector online does not pick up a test in time', async () => {
    const connector = await createConnector('Silent site');
    const connectionId = await addConnection('Silent devices', connector.id, { source_type: 'url', file_url: 'https://silent.example/d.json' });
    await agent('POST', '/connectors/api/heartbeat', connector.token, hello);
    server.context.config.connectorTestWaitSeconds = 1;
    try {
      const answer = await server.request('POST', `/adapters/test/${connectionId}`, { token: server.adminToken });
      expect(answer.body).toMatchObject({ success: false, reason: 'connector_offline', detail: 'The connector "Silent site" did not pick up the test within 1 s: is it running and able to reach Cartograph?' });
    } finally {
      server.context.config.connectorTestWaitSeconds = 30;
    }
    expect((await systemEvents(connector.id)).map((row) => row.event)).toContain('connector_job_timed_out');
    expect((await server.context.db.query('select 1 from connector_jobs where connector_id = $1', [connector.id])).length).toBe(0);
  });
});
