import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { signedFileUrl, type FileLink } from '../../src/server/reports/fileLinks.js';
import { startCartograph } from '../../src/server/server.js';
import { latestSnapshotAssets, publishSnapshot } from './dashboardsFixtures.js';
import { engines, startTestServer, type TestServer } from './harness.js';
import { createReport, csvRows, runReport } from './reportsSupport.js';

const devices = { type: 'table', title: 'Devices', inventory: 'device', columns: ['Hostname'], sort: [{ field: 'Hostname', order: 'asc' }] };
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000);

type Activity = { action: string; username: string; target_type: string; target_id: string; result: string; status_code: number };

describe.each(engines)('signed download links of report files on %s', (engine) => {
  let server: TestServer;
  let reportId: number;
  let firstRun: number;
  let secondRun: number;
  /** A link as the delivery signs it, without the public address: the path and query a browser requests. */
  const signedPath = (link: FileLink) => signedFileUrl(server.context.keys.reportLinksKey, '', link);
  /** Opened as a mail client or browser opens it: no bearer token. */
  const open = (path: string) => server.request('GET', path);
  const linkActivities = async (runId: number) => {
    const answer = await server.request('GET', '/activities/activities?action=report.download_signed&size=100', { token: server.adminToken });
    return (answer.body.results as Activity[]).filter((activity) => activity.target_id === String(runId));
  };

  beforeAll(async () => {
    server = await startTestServer(engine);
    await publishSnapshot(server.context.db, 1, new Date(), 0, latestSnapshotAssets(new Date()));
    reportId = await createReport(server, { name: 'Linked devices', is_public: true, sections: [devices] });
    firstRun = (await runReport(server, reportId, { formats: ['csv', 'pdf'] })).id;
    secondRun = (await runReport(server, reportId, { formats: ['csv'] })).id;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('downloads the run\'s file without a token and records the download as an activity of the run\'s company', async () => {
    const answer = await server.app.inject({ method: 'GET', url: signedPath({ companyId: 1, runId: firstRun, format: 'csv', expiresAt: inAWeek() }) });
    expect(answer.statusCode, answer.body.slice(0, 200)).toBe(200);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="Linked-devices.csv"');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(csvRows(answer.rawPayload)).toEqual([['Hostname'], ['mac-1'], ['printer 6'], ['srv-1'], ['ws-1'], ['ws-2']]);
    expect(await linkActivities(firstRun)).toEqual([
      expect.objectContaining({ action: 'report.download_signed', username: '(download link)', target_type: 'reports/runs', result: 'success', status_code: 200 }),
    ]);
  });

  it('refuses a tampered signature, a changed field or another key\'s signature with 404 and a clear detail, and records nothing', async () => {
    const valid = new URL(signedPath({ companyId: 1, runId: secondRun, format: 'csv', expiresAt: inAWeek() }), 'http://link');
    const signature = valid.searchParams.get('signature')!;
    const withQuery = (changes: Record<string, string>) => {
      const changed = new URL(valid);
      for (const [name, value] of Object.entries(changes)) changed.searchParams.set(name, value);
      return changed.pathname + changed.search;
    };
    const refusals = [
      withQuery({ signature: `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}` }),
      withQuery({ signature: signature.slice(0, 20) }),
      withQuery({ expires: String(Number(valid.searchParams.get('expires')) + 86_400) }),
      withQuery({ company: '2' }),
      signedPath({ companyId: 1, runId: secondRun, format: 'csv', expiresAt: inAWeek() }).replace(/signature=[^&]+/, `signature=${'x'.repeat(43)}`),
    ];
    for (const path of refusals) {
      const answer = await open(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ detail: expect.stringMatching(/^This download link is not valid/), code: 'link_not_valid' });
    }
    expect(await linkActivities(secondRun)).toEqual([]);
  });

  it('refuses another run\'s id or another format carrying the valid signature of a different file', async () => {
    const ofFirstRun = signedPath({ companyId: 1, runId: firstRun, format: 'csv', expiresAt: inAWeek() });
    const otherRun = await open(ofFirstRun.replace(`/runs/${firstRun}/`, `/runs/${secondRun}/`));
    expect(otherRun).toMatchObject({ status: 404, body: { code: 'link_not_valid' } });
    const otherFormat = await open(ofFirstRun.replace('/files/csv/', '/files/pdf/'));
    expect(otherFormat).toMatchObject({ status: 404, body: { code: 'link_not_valid' } });
  });

  it('refuses an expired link with 410 saying when it expired, and records the refusal', async () => {
    const expiredAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
    const answer = await open(signedPath({ companyId: 1, runId: secondRun, format: 'csv', expiresAt: expiredAt }));
    expect(answer.status).toBe(410);
    expect(answer.body).toEqual({ detail: `This download link expired at ${expiredAt.toISOString()}. Download the file in the console under Reports while its run is kept.`, code: 'link_expired' });
    expect(await linkActivities(secondRun)).toEqual([expect.objectContaining({ result: 'failure', status_code: 410 })]);
  });

  it('refuses a link whose run was deleted, or that names a company the run is not in, with 410', async () => {
    const doomed = (await runReport(server, reportId, { formats: ['csv'] })).id;
    const path = signedPath({ companyId: 1, runId: doomed, format: 'csv', expiresAt: inAWeek() });
    expect((await open(path)).status).toBe(200);
    // As the retention deletes a run with its files.
    await server.context.db.query('delete from report_runs where id = $1', [doomed]);
    const deleted = await open(path);
    expect(deleted.status).toBe(410);
    expect(deleted.body).toMatchObject({ detail: expect.stringMatching(/run of this download link has been deleted/), code: 'link_run_deleted' });
    expect(JSON.stringify(deleted.body)).not.toMatch(/ at \w+ \(|\.ts:\d+|report_files|select/);

    const other = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: `Other tenant ${engine}` } });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const elsewhere = await open(signedPath({ companyId: other.body.id, runId: firstRun, format: 'csv', expiresAt: inAWeek() }));
    expect(elsewhere).toMatchObject({ status: 410, body: { code: 'link_run_deleted' } });
  }, 120_000);

  it('answers a link missing its parts with the fields to fix, never a server error', async () => {
    const missing = await open(`/reports/runs/${firstRun}/files/csv/signed`);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body).sort()).toEqual(['company', 'expires', 'signature']);
    const hostile = await open(`/reports/runs/${firstRun}/files/csv/signed?company=1&expires=9999999999999&signature=${encodeURIComponent("' or 1=1 --")}`);
    expect(hostile.status).toBe(400);
    expect(Object.keys(hostile.body).sort()).toEqual(['expires', 'signature']);
  });
});

describe('the request log', () => {
  it('never prints the signature of a download link', async () => {
    const lines: string[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-link-logs-'));
    const running = await startCartograph(
      { ...readConfig({}), dataDir, adminPassword: 'logged admin passphrase', secretKey: 'log key', logLevel: 'info' },
      { database: await openPgliteDatabase(null), logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      const url = signedFileUrl(running.context.keys.reportLinksKey, '', { companyId: 1, runId: 1, format: 'pdf', expiresAt: inAWeek() });
      const signature = new URL(url, 'http://link').searchParams.get('signature')!;
      expect((await running.app.inject({ method: 'GET', url })).statusCode).toBe(410);
      const output = lines.join('');
      expect(output).toContain('/reports/runs/1/files/pdf/signed?company=1&expires=');
      expect(output).toContain('signature=[redacted]');
      expect(output).not.toContain(signature);
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
