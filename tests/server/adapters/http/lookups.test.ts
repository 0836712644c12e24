// Lookups: reference records the stream's records name (a QID, a check id) fetched in batches, each key once per
// fetch, joined into the mapping; a failing lookup warns and leaves the records without what it adds.
import { afterEach, describe, expect, it } from 'vitest';
import type { LookupSpec } from '../../../../src/server/adapters/http/manifest.js';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const definitions: Record<string, { id: string; cves: string[]; notes?: string }> = {
  q1: { id: 'q1', cves: ['CVE-2024-0001'], notes: 'long text the mapping never reads' },
  q2: { id: 'q2', cves: ['CVE-2024-0002', 'CVE-2024-0003'] },
  q3: { id: 'q3', cves: [] },
};

/** Pages of hosts, each naming the definitions of its findings. */
const hostPages = [
  [{ host: 'a', findings: [{ qid: 'q1' }, { qid: 'q2' }] }, { host: 'b', findings: [{ qid: 'q1' }, { qid: '__proto__' }] }],
  [{ host: 'c', findings: [{ qid: 'q2' }, { qid: 'q3' }, { qid: 'q9' }] }],
];

function lookupManifest(lookup: Partial<LookupSpec> = {}) {
  return manifest({
    base_url: '{{ config.base_url }}',
    streams: [
      {
        name: 'findings',
        entity: 'vulnerability',
        request: { url: '/hosts', query: { page: '{{ page.number }}' } },
        paginator: { type: 'page', page_size: 2, total_pages: '2' },
        records: '{{ response.body }}',
        expand: '{{ record.findings }}',
        lookups: [{ name: 'kb', keys: "{{ record.findings | pluck('qid') }}", key: '{{ record.id }}', batch_size: 2, keep: ['id', 'cves'], request: { url: '/kb', query: { ids: "{{ keys | join(',') }}" } }, records: '{{ response.body }}', ...lookup }],
        mapping: { VendorVulnerabilityId: '{{ entry.qid }}', CveId: '{{ lookup.kb[entry.qid].cves }}', Description: '{{ lookup.kb[entry.qid].notes }}', Hostname: '{{ record.host }}' },
      },
    ],
  });
}

/** The hosts and the knowledge base; answers what the knowledge base was asked for. */
async function serve(knowledgeBase: (ids: string[]) => { status: number; body: unknown } = (ids) => ({ status: 200, body: ids.flatMap((id) => definitions[id] ?? []) })) {
  const asked: string[][] = [];
  server = await startServer((request, response) => {
    const url = new URL(request.url!, 'http://replay');
    if (url.pathname === '/hosts') return json(response, 200, hostPages[Number(url.searchParams.get('page')) - 1] ?? []);
    const ids = url.searchParams.get('ids')!.split(',');
    asked.push(ids);
    const answer = knowledgeBase(ids);
    return json(response, answer.status, answer.body);
  });
  return asked;
}

describe('lookups', () => {
  it('fetch the keys a page names in batches, each once per fetch, and join them into the mapping', async () => {
    const asked = await serve();
    const { records, warnings } = await collect(lookupManifest(), { base_url: server!.url });
    // Page 1 names q1, q2 and __proto__ (two batches of two at most); page 2 only what page 1 did not: q3 and q9.
    expect(asked).toEqual([['q1', 'q2'], ['__proto__'], ['q3', 'q9']]);
    expect(warnings).toEqual([]);
    expect(records.map((record) => record.fields)).toEqual([
      { VendorVulnerabilityId: 'q1', CveId: ['CVE-2024-0001'], Hostname: 'a' },
      { VendorVulnerabilityId: 'q2', CveId: ['CVE-2024-0002', 'CVE-2024-0003'], Hostname: 'a' },
      { VendorVulnerabilityId: 'q1', CveId: ['CVE-2024-0001'], Hostname: 'b' },
      // A key that is a JavaScript property name reads as absent, not as Object.prototype.
      { VendorVulnerabilityId: '__proto__', Hostname: 'b' },
      { VendorVulnerabilityId: 'q2', CveId: ['CVE-2024-0002', 'CVE-2024-0003'], Hostname: 'c' },
      // A definition without CVEs, and one the vendor did not answer: the finding keeps its own id.
      { VendorVulnerabilityId: 'q3', Hostname: 'c' },
      { VendorVulnerabilityId: 'q9', Hostname: 'c' },
    ]);
  });

  it('hold only the properties `keep` names', async () => {
    await serve();
    const held = await collect(lookupManifest({ keep: ['id', 'cves', 'notes'] }), { base_url: server!.url });
    const trimmed = await collect(lookupManifest(), { base_url: server!.url });
    expect(held.records[0].fields.Description).toBe('long text the mapping never reads');
    expect(trimmed.records[0].fields.Description).toBeUndefined();
  });

  it('warn once when the reference data cannot be read and hand over the records without it', async () => {
    const asked = await serve(() => ({ status: 403, body: { error: 'the account may not read the knowledge base' } }));
    const { records, warnings } = await collect(lookupManifest(), { base_url: server!.url });
    expect(asked).toEqual([['q1', 'q2']]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/lookup kb failed/);
    expect(records).toHaveLength(7);
    expect(records.every((record) => record.fields.CveId === undefined)).toBe(true);
  });
});
