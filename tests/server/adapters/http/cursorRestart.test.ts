// An expired cursor restarts the chain (from the first page, or from a checkpoint) without handing a record twice.
import { afterEach, describe, expect, it } from 'vitest';
import type { RestartSpec } from '../../../../src/server/adapters/http/manifest.js';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type Item = { id: string; updated: string };
const items: Item[] = Array.from({ length: 7 }, (_, index) => ({ id: `v${index + 1}`, updated: `2024-03-0${Math.min(index, 5) + 1}T00:00:00Z` }));

function cursorManifest(restart?: RestartSpec) {
  return manifest({
    base_url: '{{ config.base_url }}',
    streams: [
      {
        name: 'vulns',
        entity: 'vulnerability',
        request: { url: '/vulns', query: { after: '{{ page.cursor }}', since: '{{ page.checkpoint }}' }, error_when: [{ condition: '{{ response.body.errors | length > 0 }}', message: "{{ response.body.errors | pluck('message') | join('; ') }}" }] },
        paginator: { type: 'cursor', cursor: '{{ response.body.meta.after }}', stop_when: '{{ records | length == 0 }}', ...(restart ? { restart } : {}) },
        records: '{{ response.body.resources }}',
        mapping: { VendorVulnerabilityId: '{{ record.id }}' },
      },
    ],
  });
}

/**
 * A Spotlight-like list sorted by `updated` ascending, three per page, whose `after` token expires once: the request
 * carrying `expireAt` answers 400 "after token expired" the first time.
 */
function spotlight(expireAt: string, requests: string[]) {
  let expired = false;
  return startServer((request, response) => {
    requests.push(request.url!);
    const query = new URL(request.url!, 'http://x').searchParams;
    const after = query.get('after');
    if (after === expireAt && !expired) {
      expired = true;
      return json(response, 400, { meta: {}, resources: [], errors: [{ code: 400, message: 'after token is expired' }] });
    }
    const since = query.get('since');
    const matching = since ? items.filter((item) => item.updated >= since) : items;
    const start = after ? Number(after.slice(1)) : 0;
    const page = matching.slice(start, start + 3);
    json(response, 200, { meta: { after: start + 3 < matching.length ? `t${start + 3}` : '' }, resources: page, errors: [] });
  });
}

const ids = (records: { fields: Record<string, unknown> }[]) => records.map((record) => record.fields.VendorVulnerabilityId);

describe('restarting an expired cursor', () => {
  it('fails with the vendor message when the paginator has no restart', async () => {
    server = await spotlight('t3', []);
    await expect(collect(cursorManifest(), { base_url: server.url })).rejects.toThrow(/400 .*after token is expired/);
  });

  it('restarts from the first page and skips every record already handed over', async () => {
    const requests: string[] = [];
    server = await spotlight('t6', requests);
    const { records, warnings } = await collect(cursorManifest({ when: "{{ response.status == 400 and (response.body.errors | pluck('message') | join(' ') | contains('expired')) }}", key: '{{ record.id }}' }), { base_url: server.url });
    expect(ids(records)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']);
    expect(requests).toEqual(['/vulns', '/vulns?after=t3', '/vulns?after=t6', '/vulns', '/vulns?after=t3', '/vulns?after=t6']);
    expect(warnings).toEqual([expect.stringMatching(/stream vulns: the vendor's cursor expired at page 3; restarted from the first page \(restart 1 of 3\)/)]);
  });

  it('restarts from the checkpoint of the last record handed over, skipping the records that share it', async () => {
    const requests: string[] = [];
    server = await spotlight('t3', requests);
    const { records, warnings } = await collect(cursorManifest({ when: "{{ response.body.errors | pluck('message') | join(' ') | contains('expired') }}", key: '{{ record.id }}', checkpoint: '{{ record.updated }}' }), { base_url: server.url });
    expect(ids(records)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']);
    // The restart asks from v3's timestamp: v3 comes again and is skipped.
    expect(requests.slice(1)).toEqual(['/vulns?after=t3', '/vulns?since=2024-03-03T00%3A00%3A00Z', '/vulns?after=t3&since=2024-03-03T00%3A00%3A00Z']);
    expect(warnings[0]).toMatch(/restarted from the checkpoint 2024-03-03T00:00:00Z/);
  });

  it('gives up after max_restarts when the cursor keeps expiring', async () => {
    server = await startServer((request, response) => {
      const after = new URL(request.url!, 'http://x').searchParams.get('after');
      if (after) return json(response, 410, { kind: 'Status', reason: 'Expired', message: 'The provided continue parameter is too old' });
      json(response, 200, { meta: { after: 'next' }, resources: [{ id: 'v1' }] });
    });
    const failure = await collect(cursorManifest({ when: '{{ response.status == 410 }}', key: '{{ record.id }}', max_restarts: 2 }), { base_url: server.url }).catch((error: Error) => error);
    expect((failure as Error).message).toBe("stream vulns: the vendor's cursor expired again at page 6 after 2 restarts; 1 records were fetched");
  });
});
