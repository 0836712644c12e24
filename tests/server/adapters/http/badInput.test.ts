// Scanner answers that are too big or malformed for one host: the fetch goes on, the host is kept within bounds and
// the connection is warned; odd values never fail the fetch.
import { afterEach, describe, expect, it } from 'vitest';
import { collect, json, manifest, startServer, type TestServer } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const findingsManifest = manifest({
  base_url: '{{ config.base_url }}',
  streams: [
    {
      name: 'findings',
      entity: 'vulnerability',
      request: { url: '/findings' },
      records: '{{ response.body.findings }}',
      mapping: { Hostname: '{{ record.host }}', CveId: '{{ record.cve }}', Evidence: '{{ record.output }}', Port: '{{ record.ports }}', CvssScore: '{{ record.score | number }}', LastSeen: '{{ record.last_found | date }}' },
    },
  ],
});

describe('bad scanner input', () => {
  it('keeps a 10 MB host within bounds with a warning, leaving the other hosts untouched', async () => {
    const huge = { id: 'asset-2', host: 'big-host', cve: 'CVE-2024-3094', output: 'x'.repeat(10 * 1024 * 1024), ports: Array.from({ length: 50_000 }, (_, index) => index) };
    const small = [{ id: 'asset-1', host: 'ws-1', cve: 'CVE-2024-21412', output: 'KB5034765 is not installed', ports: [445], score: '8.1' }, { id: 'asset-3', host: 'ws-3', cve: 'CVE-2023-4863', output: 'libwebp 1.3.1', ports: [443], score: 8.8 }];
    server = await startServer((_request, response) => json(response, 200, { findings: [small[0], huge, small[1]] }));
    const { records, warnings } = await collect(findingsManifest, { base_url: server.url });
    expect(records).toHaveLength(3);
    expect(records[0]).toEqual({ entity: 'vulnerability', fields: { Hostname: 'ws-1', CveId: 'CVE-2024-21412', Evidence: 'KB5034765 is not installed', Port: [445], CvssScore: 8.1 }, raw: small[0] });
    expect(records[2].raw).toEqual(small[1]);
    const big = records[1];
    expect(big.fields.Hostname).toBe('big-host');
    expect(big.fields.CveId).toBe('CVE-2024-3094');
    expect((big.fields.Evidence as string).length).toBe(8193);
    expect(big.fields.Port).toHaveLength(1000);
    // The vendor record keeps its short fields (its id keeps the record key stable), not the 10 MB output.
    expect(big.raw).toEqual({ id: 'asset-2', host: 'big-host', cve: 'CVE-2024-3094' });
    expect(warnings).toEqual([expect.stringMatching(/^stream findings: 1 record over the 1.0 MB record limit \(largest \d+\.\d MB\) kept with long values cut/)]);
  });

  it('maps malformed values without failing: numbers that are not numbers, dates that are not dates, records that are not objects', async () => {
    server = await startServer((_request, response) => json(response, 200, { findings: [{ host: 'ws-1', score: 'n/a', last_found: 'yesterday' }, 'not-a-record', null, 42, { host: ['a', null, ''], score: { base: 7 } }] }));
    const { records } = await collect(findingsManifest, { base_url: server.url });
    expect(records.map((record) => record.fields)).toEqual([{ Hostname: 'ws-1', LastSeen: 'yesterday' }, {}, {}, {}, { Hostname: ['a'] }]);
  });
});
