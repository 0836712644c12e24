import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, userPassword, type TestServer } from './harness.js';
import { epssCsv, nvdFeed, nvdRecords } from './avmFixtures.js';
import { sendDueFeedDownload } from '../../src/server/avm/feedSchedule.js';
import { bundledSnapshotFile } from '../../src/server/lifecycle/osLifecycle.js';

// Downloads of the AVM's feeds from configured addresses on a schedule, against a local HTTP server that answers as
// NVD, CISA and FIRST do: ETag and Last-Modified validators honoured with 304, a gzipped file, a gzip
// Content-Encoding, a missing file and a file cut short. A failure is written on the enrichment while the previous
// import stays in use; the CPE dictionary (CPE API 2.0 pages and CPE match data) is a feed like the others.

const kevFile = readFileSync(new URL('../fixtures/avm/known_exploited_vulnerabilities.json.gz', import.meta.url));
// endoflife.date's API v1 answer for its operating systems (the bundled snapshot), and an API v0 list of one product.
const lifecycleFile = readFileSync(bundledSnapshotFile);
const ubuntuCycles = readFileSync(new URL('../fixtures/lifecycle/ubuntu.json', import.meta.url));
const lastModified = 'Tue, 24 Nov 2026 03:00:00 GMT';

/** CPE API 2.0 answer of a few real product names (titles as NVD writes them), one deprecated. */
const cpePage = {
  resultsPerPage: 4, startIndex: 0, totalResults: 4, format: 'NVD_CPE', version: '2.0', timestamp: '2026-11-24T03:00:00.000',
  products: [
    { cpe: { deprecated: false, cpeName: 'cpe:2.3:a:mozilla:firefox:115.0.2:*:*:*:esr:*:*:*', cpeNameId: '5C0B2A0A-0000-4000-8000-000000000001', titles: [{ title: 'Mozilla Firefox 115.0.2 ESR', lang: 'en' }] } },
    { cpe: { deprecated: false, cpeName: 'cpe:2.3:a:mozilla:firefox:120.0:*:*:*:*:*:*:*', cpeNameId: '5C0B2A0A-0000-4000-8000-000000000002', titles: [{ title: 'Mozilla Firefox 120.0', lang: 'en' }] } },
    { cpe: { deprecated: false, cpeName: 'cpe:2.3:a:7-zip:7-zip:23.01:*:*:*:*:*:*:*', cpeNameId: '5C0B2A0A-0000-4000-8000-000000000003', titles: [{ title: '7-Zip 23.01', lang: 'en' }] } },
    { cpe: { deprecated: true, cpeName: 'cpe:2.3:a:igor_pavlov:7-zip:9.20:*:*:*:*:*:*:*', cpeNameId: '5C0B2A0A-0000-4000-8000-000000000004', titles: [{ title: 'Igor Pavlov 7-Zip 9.20', lang: 'en' }] } },
  ],
};
const cpeMatchData = {
  resultsPerPage: 1, startIndex: 0, totalResults: 1, format: 'NVD_CPEMatchString', version: '2.0', timestamp: '2026-11-24T03:00:00.000',
  matchStrings: [{ matchString: {
    matchCriteriaId: '0A0B0C0D-0000-4000-8000-000000000001', criteria: 'cpe:2.3:a:videolan:vlc_media_player:*:*:*:*:*:*:*:*', versionEndExcluding: '3.0.20', status: 'Active',
    matches: [{ cpeName: 'cpe:2.3:a:videolan:vlc_media_player:3.0.18:*:*:*:*:*:*:*', cpeNameId: 'AA000000-0000-4000-8000-000000000001' }],
  } }],
};

type Served = { body: Buffer; etag?: string; lastModified?: string; status?: number; encodeGzip?: boolean };

/** The feeds' server: answers each path from `files`, 304 when the client's validators still hold; counts requests. */
function feedServer(files: Map<string, Served>) {
  const requests: { path: string; status: number; conditional: boolean }[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    const file = files.get(path);
    const conditional = Boolean(request.headers['if-none-match'] || request.headers['if-modified-since']);
    const answer = (status: number, headers: Record<string, string> = {}, body?: Buffer) => {
      requests.push({ path, status, conditional });
      response.writeHead(status, headers);
      response.end(body);
    };
    if (!file || file.status) return answer(file?.status ?? 404, { 'content-type': 'text/plain' }, Buffer.from('Not Found'));
    const validators = { ...(file.etag && { etag: file.etag }), ...(file.lastModified && { 'last-modified': file.lastModified }) };
    if ((file.etag && request.headers['if-none-match'] === file.etag) || (!file.etag && file.lastModified && request.headers['if-modified-since'] === file.lastModified)) return answer(304, validators);
    if (file.encodeGzip && /gzip/.test(String(request.headers['accept-encoding']))) return answer(200, { ...validators, 'content-encoding': 'gzip' }, gzipSync(file.body));
    return answer(200, validators, file.body);
  });
  return { server, requests };
}

describe.each(engines)('AVM feed downloads on %s', (engine) => {
  let server: TestServer;
  let feeds: ReturnType<typeof feedServer>;
  let base: string;
  const files = new Map<string, Served>();
  const enrichment = async (slug: string) => (await server.request('GET', '/avm/enrichments', { token: server.adminToken })).body.results.find((row: { slug: string }) => row.slug === slug);
  const settings = (body: object) => server.request('PUT', '/configurations/avm-feed-downloads', { token: server.adminToken, body });
  const every = (document: object) => ({ enabled: true, cron: '* * * * *', timezone: 'UTC', nvd_cve_urls: [], cisa_kev_url: '', first_epss_url: '', nvd_cpe_urls: [], endoflife_date_urls: [], ...document });
  /** A slot of the schedule falls due: the tick queues the job; waits until the feeds it names are no longer importing and the job ended. */
  const runSlot = async (minute: number) => {
    const slot = new Date(Date.UTC(2026, 10, 25, 4, minute));
    const before = feeds.requests.length;
    expect(await sendDueFeedDownload(server.context, server.context.jobs.send, new Date(slot.getTime() - 1000), new Date(slot.getTime() + 1000))).toBe(true);
    for (let waited = 0; waited < 60_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [job] = await server.context.db.query<{ state: string }>("select state from pgboss.job where name = 'avm-feed-download' and singleton_key = $1", [slot.toISOString()]);
      if (job && ['completed', 'failed'].includes(job.state)) return feeds.requests.slice(before);
    }
    throw new Error('the download job did not end');
  };

  beforeAll(async () => {
    feeds = feedServer(files);
    await new Promise<void>((resolve) => feeds.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(feeds.server.address() as AddressInfo).port}`;
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server.stop();
    await new Promise((resolve) => feeds.server.close(resolve));
  });

  it('keeps the addresses and schedule on the AVM configuration, set by the provider company only', async () => {
    const defaults = await server.request('GET', '/configurations/avm-feed-downloads', { token: server.adminToken });
    expect(defaults.body).toMatchObject({
      enabled: false, cisa_kev_url: 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json', endoflife_date_urls: ['https://endoflife.date/api/v1/products/full'], next_runs: [],
    });
    expect((await settings(every({ cisa_kev_url: 'ftp://example.org/kev.json' }))).body.cisa_kev_url[0]).toBeTruthy();
    expect((await settings(every({ cron: 'every day' }))).body.cron[0]).toMatch(/valid cron/);
    const saved = await settings(every({ cisa_kev_url: `${base}/kev.json.gz` }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.next_runs).toHaveLength(5);

    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Download tenant' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'download.tenant', password: userPassword } });
    const tenant = await server.signIn('download.tenant', userPassword);
    const refused = await server.request('PUT', '/configurations/avm-feed-downloads', { token: tenant, body: every({ cisa_kev_url: 'http://10.0.0.1/kev.json' }) });
    expect(refused.status).toBe(403);
    expect((await server.request('POST', '/avm/enrichments/download', { token: tenant })).status).toBe(403);
    expect((await server.request('GET', '/configurations/avm-feed-downloads', { token: server.adminToken })).body.cisa_kev_url).toBe(`${base}/kev.json.gz`);
  });

  it('downloads every feed on its schedule, gzipped or gzip-encoded, and then asks only for changed files', async () => {
    files.set('/kev.json.gz', { body: kevFile, etag: '"kev-1"' });
    files.set('/nvdcve-2.0-modified.json', { body: Buffer.from(JSON.stringify(nvdFeed(nvdRecords))), lastModified, encodeGzip: true });
    files.set('/epss_scores-current.csv.gz', { body: gzipSync(epssCsv), etag: 'W/"epss-1"', lastModified });
    files.set('/cpes/2.0?startIndex=0', { body: Buffer.from(JSON.stringify(cpePage)), etag: '"cpe-1"' });
    files.set('/cpematch/2.0?startIndex=0', { body: gzipSync(JSON.stringify(cpeMatchData)) });
    files.set('/api/v1/products/full', { body: lifecycleFile, etag: '"eol-1"', encodeGzip: true });
    files.set('/api/ubuntu.json', { body: ubuntuCycles, lastModified });
    expect((await settings(every({
      cisa_kev_url: `${base}/kev.json.gz`, nvd_cve_urls: [`${base}/nvdcve-2.0-modified.json`], first_epss_url: `${base}/epss_scores-current.csv.gz`,
      nvd_cpe_urls: [`${base}/cpes/2.0?startIndex=0`, `${base}/cpematch/2.0?startIndex=0`], endoflife_date_urls: [`${base}/api/v1/products/full`, `${base}/api/ubuntu.json`],
    }))).status).toBe(200);

    const first = await runSlot(0);
    expect(first.map((request) => `${request.path} ${request.status}`)).toEqual([
      '/cpes/2.0?startIndex=0 200', '/cpematch/2.0?startIndex=0 200', '/nvdcve-2.0-modified.json 200', '/kev.json.gz 200', '/epss_scores-current.csv.gz 200',
      '/api/v1/products/full 200', '/api/ubuntu.json 200',
    ]);
    // Every product of the API v1 answer, then Ubuntu's cycles again from the v0 list its address names.
    expect(await enrichment('endoflife-date')).toMatchObject({ status: 'imported', record_count: 545, status_detail: `${base}/api/ubuntu.json: 44 records read` });
    expect(await enrichment('cisa-kev')).toMatchObject({ status: 'imported', record_count: 1404, last_error: '' });
    expect(await enrichment('nvd-cve')).toMatchObject({ status: 'imported', record_count: nvdRecords.length });
    expect(await enrichment('first-epss')).toMatchObject({ status: 'imported', record_count: 4 });
    expect(await enrichment('nvd-cpe')).toMatchObject({ status: 'imported', record_count: 3 });
    const products = await server.context.db.query<{ vendor: string; product: string; title: string | null }>('select vendor, product, title from avm_cpe_products order by vendor, product');
    expect(products).toEqual([
      { vendor: '7-zip', product: '7-zip', title: '7-zip' },
      { vendor: 'mozilla', product: 'firefox', title: 'mozilla firefox' },
      { vendor: 'videolan', product: 'vlc_media_player', title: null },
    ]);

    // The next slot: the servers that gave validators answer 304, the one that gave none sends its file again.
    const second = await runSlot(1);
    expect(second.map((request) => `${request.path} ${request.status} ${request.conditional ? 'conditional' : 'whole'}`)).toEqual([
      '/cpes/2.0?startIndex=0 304 conditional', '/cpematch/2.0?startIndex=0 200 whole', '/nvdcve-2.0-modified.json 304 conditional', '/kev.json.gz 304 conditional', '/epss_scores-current.csv.gz 304 conditional',
      '/api/v1/products/full 304 conditional', '/api/ubuntu.json 304 conditional',
    ]);
    expect(await enrichment('cisa-kev')).toMatchObject({ status: 'imported', record_count: 1404 });
    expect((await enrichment('cisa-kev')).status_detail).toMatch(/not changed since the last download/);
  });

  it('writes a failed download on the enrichment and keeps the previous import in use', async () => {
    files.set('/kev.json.gz', { body: Buffer.from(''), status: 503 });
    const whole = epssCsv.trimEnd();
    files.set('/epss_scores-current.csv.gz', { body: gzipSync(whole.slice(0, whole.length - 8)), etag: '"epss-2"' });
    await runSlot(2);
    const kev = await enrichment('cisa-kev');
    expect(kev).toMatchObject({ status: 'failed', record_count: 1404 });
    expect(kev.status_detail).toMatch(new RegExp(`The download failed: ${base}/kev.json.gz: the server answered 503 Service Unavailable\\. The previous import stays in use\\.`));
    const epss = await enrichment('first-epss');
    expect(epss).toMatchObject({ status: 'failed', record_count: 4 });
    expect(epss.last_error).toMatch(/Line 6 \(CVE-2022-3602\)/);
    expect((await server.context.db.query<{ count: number }>('select count(*)::int as count from avm_epss'))[0].count).toBe(4);
    // The failed file's validators were not kept: once mended, it is downloaded whole and imported.
    files.set('/epss_scores-current.csv.gz', { body: gzipSync(epssCsv), etag: '"epss-2"' });
    files.set('/kev.json.gz', { body: kevFile, etag: '"kev-1"' });
    const mended = await runSlot(3);
    expect(mended.filter((request) => request.path.startsWith('/epss')).map((request) => `${request.status} ${request.conditional}`)).toEqual(['200 true']);
    expect(await enrichment('first-epss')).toMatchObject({ status: 'imported', record_count: 4 });
    expect((await enrichment('cisa-kev')).status).not.toBe('failed');
  });

  it('refuses a lifecycle feed address at the cloud metadata service, keeping the lifecycle in use', async () => {
    expect((await settings(every({ endoflife_date_urls: ['http://169.254.169.254/latest/meta-data/'] }))).status).toBe(200);
    await runSlot(4);
    const lifecycle = await enrichment('endoflife-date');
    expect(lifecycle).toMatchObject({ status: 'failed', record_count: 545 });
    expect(lifecycle.status_detail).toMatch(/^The download failed: http:\/\/169\.254\.169\.254\/latest\/meta-data\/: .*169\.254\.169\.254.*\. The previous import stays in use\.$/);
  });

  it('imports CPE match data uploaded like the other feeds, and rejects a file of neither CPE shape', async () => {
    const upload = (name: string, content: string) => {
      const boundary = '----cartograph-cpe';
      const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      return server.request('POST', '/avm/enrichments/nvd-cpe/upload', { token: server.adminToken, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    };
    const refused = await upload('cves.json', JSON.stringify(nvdFeed(nvdRecords)));
    expect(refused.status).toBe(400);
    expect(refused.body.file[0]).toMatch(/neither a CPE API 2.0 answer .* nor CPE match data/);
    const broken = await upload('cpes.json', JSON.stringify({ ...cpePage, products: [cpePage.products[0], { cpe: { cpeName: 'firefox' } }] }));
    expect(broken.body.file[0]).toMatch(/Product 2 of the CPE dictionary has no CPE 2.3 cpeName/);
    expect(await enrichment('nvd-cpe')).toMatchObject({ status: 'failed', record_count: 3 });
  });
});
