// Asynchronous export jobs: start, poll with back-off, chunks fetched as they are listed, and a bounded wait that ends
// a job that never finishes with a clear error.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportSpec } from '../../../../src/server/adapters/http/manifest.js';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function exportManifest(poll: Partial<ExportSpec['poll']> = {}) {
  return manifest({
    base_url: '{{ config.base_url }}',
    streams: [
      {
        name: 'vulns',
        entity: 'vulnerability',
        export: {
          start: { request: { method: 'POST', url: '/vulns/export', body: { num_assets: 50 }, success_statuses: [200, 409] }, job_id: '{{ response.body.export_uuid or response.body.active_job_id }}' },
          poll: { request: { url: '/vulns/export/{{ job.id }}/status' }, done: "{{ response.body.status == 'FINISHED' }}", failed: "{{ response.body.status == 'ERROR' or response.body.status == 'CANCELLED' }}", status: '{{ response.body.status }}', chunks: '{{ response.body.chunks_available }}', interval_seconds: 0.01, max_interval_seconds: 0.04, ...poll },
        },
        request: { url: '/vulns/export/{{ job.id }}/chunks/{{ chunk }}' },
        records: '{{ response.body }}',
        mapping: { CveId: '{{ record.cve }}', VendorVulnerabilityId: '{{ job.id }}-{{ chunk }}' },
      },
    ],
  });
}

describe('export jobs', () => {
  it('starts the job, polls until finished and fetches every chunk once, as soon as it is listed', async () => {
    const calls: string[] = [];
    let polls = 0;
    server = await startServer((request, response) => {
      calls.push(`${request.method} ${request.url}`);
      if (request.url === '/vulns/export') return json(response, 200, { export_uuid: 'job-1' });
      if (request.url === '/vulns/export/job-1/status') {
        polls += 1;
        const states = [{ status: 'QUEUED', chunks_available: [] }, { status: 'PROCESSING', chunks_available: [1] }, { status: 'PROCESSING', chunks_available: [1] }, { status: 'FINISHED', chunks_available: [1, 2] }];
        return json(response, 200, states[Math.min(polls - 1, states.length - 1)]);
      }
      const chunk = /chunks\/(\d+)$/.exec(request.url!)?.[1];
      return json(response, 200, [{ cve: `CVE-2024-000${chunk}` }, { cve: `CVE-2024-100${chunk}` }]);
    });
    const { records } = await collect(exportManifest(), { base_url: server.url });
    expect(records.map((record) => record.fields)).toEqual([
      { CveId: 'CVE-2024-0001', VendorVulnerabilityId: 'job-1-1' },
      { CveId: 'CVE-2024-1001', VendorVulnerabilityId: 'job-1-1' },
      { CveId: 'CVE-2024-0002', VendorVulnerabilityId: 'job-1-2' },
      { CveId: 'CVE-2024-1002', VendorVulnerabilityId: 'job-1-2' },
    ]);
    // Chunk 1 is fetched while the job is still processing, before the next status poll.
    expect(calls).toEqual(['POST /vulns/export', ...Array(2).fill('GET /vulns/export/job-1/status'), 'GET /vulns/export/job-1/chunks/1', ...Array(2).fill('GET /vulns/export/job-1/status'), 'GET /vulns/export/job-1/chunks/2']);
  });

  it('adopts the running job a 409 names', async () => {
    server = await startServer((request, response) => {
      if (request.url === '/vulns/export') return json(response, 409, { statusCode: 409, error: 'Conflict', message: 'Duplicate export not allowed.', active_job_id: 'running-7' });
      if (request.url?.endsWith('/status')) return json(response, 200, { status: 'FINISHED', chunks_available: [3] });
      return json(response, 200, [{ cve: 'CVE-2024-3094' }]);
    });
    const { records } = await collect(exportManifest(), { base_url: server.url });
    expect(records.map((record) => record.fields)).toEqual([{ CveId: 'CVE-2024-3094', VendorVulnerabilityId: 'running-7-3' }]);
  });

  it('ends a job that never finishes after the bounded wait, naming the job and its last status, with growing intervals', async () => {
    let polls = 0;
    server = await startServer((request, response) => {
      if (request.url === '/vulns/export') return json(response, 200, { export_uuid: 'stuck-1' });
      polls += 1;
      return json(response, 200, { status: 'PROCESSING', chunks_available: [] });
    });
    const failure = await collect(exportManifest({ interval_seconds: 0.02, max_interval_seconds: 0.08, max_wait_seconds: 0.3 }), { base_url: server.url }).catch((error: Error) => error);
    expect((failure as Error).message).toMatch(/stream vulns: the export job stuck-1 did not finish within 0.3 s of waiting \(last status PROCESSING, 0 chunks fetched\)/);
    // Waits of 0.02, 0.04, then 0.08 (the longest interval) until 0.3 s are spent: 0.02 + 0.04 + 0.08 × 3 = 0.3, six polls.
    expect(polls).toBe(6);
  });

  it('fails when the vendor reports the job failed, and when the start answer holds no job id', async () => {
    server = await startServer((request, response) => {
      if (request.url === '/vulns/export') return json(response, 200, { export_uuid: 'bad-1' });
      return json(response, 200, { status: 'ERROR', chunks_available: [] });
    });
    await expect(collect(exportManifest(), { base_url: server.url })).rejects.toThrow("stream vulns: the export job bad-1 failed on the vendor's side (status ERROR)");
    await server.close();
    server = await startServer((_request, response) => json(response, 200, { message: 'accepted' }));
    await expect(collect(exportManifest(), { base_url: server.url })).rejects.toThrow('stream vulns: the answer that starts the export holds no job id');
  });

  // Without the cancellation the first wait alone (30 s) would outlast the test's time limit.
  it('stops waiting at once when the fetch is cancelled', async () => {
    // Cancelled half a second after the first status answer, well inside the 30 s wait: a fixed timer from the start
    // could fire during a request on a loaded machine, which is another cancellation than the one tested.
    const cancel = new AbortController();
    server = await startServer((request, response) => {
      if (request.url === '/vulns/export') return json(response, 200, { export_uuid: 'slow-1' });
      response.on('finish', () => setTimeout(() => cancel.abort(), 500));
      return json(response, 200, { status: 'QUEUED' });
    });
    await expect(collect(exportManifest({ interval_seconds: 30, max_wait_seconds: 600 }), { base_url: server.url }, cancel.signal)).rejects.toThrow(/cancelled while waiting for an export job/);
  });
});
