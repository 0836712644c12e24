import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptsPerStep, publishStep } from '../../src/server/discovery/steps.js';
import { startSyslogReceiver, type TestSyslogReceiver } from '../support/syslogReceiver.js';
import { runDiscoveryAndWait, waitForDiscoveries } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

type SystemEvent = { level: string; event: string; message: string; detail: Record<string, unknown> };

describe.each(engines)('system log of discoveries, schedules, report and action runs on %s', (engine) => {
  let server: TestServer;
  let receiver: TestSyslogReceiver;
  beforeAll(async () => {
    server = await startTestServer(engine);
    receiver = await startSyslogReceiver('tcp');
    const saved = await server.request('PUT', '/configurations/syslog-configuration', {
      token: server.adminToken, body: { enabled: true, host: '127.0.0.1', port: receiver.port, transport: 'tcp', format: 'rfc5424', ca_certificate: '', verify_certificate: true },
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const eventsNamed = (event: string) => server.context.db.query<SystemEvent>('select level, event, message, detail from system_log where event = $1 order by id', [event]);
  /** Waits for the event to be written (work ends in a queue job); the test's own timeout bounds the wait. */
  const waitForEvent = async (event: string, count = 1): Promise<SystemEvent[]> => {
    for (;;) {
      const rows = await eventsNamed(event);
      if (rows.length >= count) return rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** Waits until the receiver got a line naming the event (RFC 5424: the MSGID is the sixth field). */
  const forwarded = async (event: string): Promise<string> => {
    for (;;) {
      const line = receiver.lines.find((candidate) => candidate.split(' ')[5] === event);
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('logs a report run that fails and an action run that fails, and forwards them', async () => {
    const token = server.adminToken;
    // No discovery has completed yet: a report has no snapshot to read, an action no assets to act on.
    const report = await server.request('POST', '/reports/reports', { token, body: { name: `Nothing yet ${engine}`, format: 'csv', sections: [] } });
    expect(report.status).toBe(201);
    expect((await server.request('POST', `/reports/reports/${report.body.id}/run`, { token, body: { formats: ['csv'] } })).status).toBe(202);
    const [failedReport] = await waitForEvent('report_run_failed');
    expect(failedReport).toMatchObject({ level: 'error', detail: { company_id: 1, report_id: report.body.id } });
    expect(failedReport.message).toMatch(/no snapshot/i);

    const action = await server.request('POST', '/actions/actions', {
      token, body: { name: `Tag all ${engine}`, trigger: 'manual', scope: { entity: 'device', query: '' }, type: 'tag', parameters: { operation: 'add', tags: ['seen'] } },
    });
    expect(action.status).toBe(201);
    const run = await server.request('POST', `/actions/actions/${action.body.id}/run`, { token, body: {} });
    expect(run.status).toBe(202);
    const [started] = await waitForEvent('action_run_started');
    expect(started).toMatchObject({ level: 'info', detail: { company_id: 1, action_id: action.body.id, run_id: run.body.id, trigger: 'manual' } });
    const [failedAction] = await waitForEvent('action_run_failed');
    expect(failedAction).toMatchObject({ level: 'error', detail: { run_id: run.body.id } });
    expect(await forwarded('report_run_failed')).toContain(`report_id="${report.body.id}"`);
    expect(await forwarded('action_run_failed')).toContain(`run_id="${run.body.id}"`);
  });

  it('logs discoveries started by hand and by the schedule, and action runs that finish', async () => {
    const token = server.adminToken;
    const manual = await runDiscoveryAndWait(server);
    expect(manual.state).toBe('done');
    const [started] = await waitForEvent('discovery_started');
    expect(started).toMatchObject({ level: 'info', detail: { company_id: 1, discovery_id: manual.id, trigger: 'manual' } });
    expect(await forwarded('discovery_started')).toContain(`discovery_id="${manual.id}"`);

    // The scheduler's slot: the tick queues it, a queue worker of this process starts the discovery.
    await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: true, cron: '*/5 * * * *', timezone: 'UTC' } });
    try {
      const slot = new Date(Math.ceil(Date.now() / 300_000) * 300_000);
      expect(await server.discoveries.scheduler.tick(new Date(slot.getTime() + 1_000), new Date(slot.getTime() - 5_000))).toBe(1);
      const [scheduled] = await waitForEvent('scheduled_discovery_started');
      expect(scheduled).toMatchObject({ level: 'info', detail: { company_id: 1, trigger: 'schedule', slot: slot.toISOString() } });
      await waitForDiscoveries(server);
    } finally {
      await server.request('PUT', '/configurations/discovery-schedule', { token, body: { enabled: false, cron: '0 2 * * *', timezone: 'UTC' } });
    }

    // With a snapshot, a dry run of the action finishes (over no devices).
    const [action] = await server.context.db.query<{ id: number }>("select id from resources where kind = 'cartograph:entities/action' order by id limit 1");
    const run = await server.request('POST', `/actions/actions/${action.id}/run`, { token, body: { dry_run: true } });
    const finished = await waitForEvent('action_run_finished');
    expect(finished.at(-1)).toMatchObject({ level: 'info', detail: { run_id: run.body.id, dry_run: true, targets: 0, failed: 0 } });
  });

  it('logs a discovery that failed because its publish lost its worker for the last time', async () => {
    const { db } = server.context;
    const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, trigger) values (1, 'running', 'manual') returning id");
    await db.query(
      "insert into discovery_steps (discovery_id, step, position, state, attempt, heartbeat_at) values ($1, $2, 1, 'running', $3, now() - interval '1 hour')",
      [id, publishStep, attemptsPerStep],
    );
    await server.discoveries.reapStaleSteps();
    const failed = await waitForEvent('discovery_failed');
    expect(failed.find((event) => event.detail.discovery_id === id)).toMatchObject({ level: 'error', detail: { company_id: 1 } });
    expect((await db.query<{ status: string }>('select status from discoveries where id = $1', [id]))[0].status).toBe('error');
  });
});
