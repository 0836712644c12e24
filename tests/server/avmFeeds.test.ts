import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithGroups, engines, startTestServer, userPassword, type TestServer } from './harness.js';
import { epssCsv, nvdFeed, nvdRecords } from './avmFixtures.js';

// Imports of the AVM's feeds through the API: an upload (multipart) or a file of an allowed import folder, plain or
// gzipped; streamed, idempotent, and a feed that breaks is rejected naming where, the previous import staying in use.

const kevFile = readFileSync(new URL('../fixtures/avm/known_exploited_vulnerabilities.json.gz', import.meta.url));
const boundary = '----cartograph-avm-boundary';

/** A multipart/form-data body with one file field, as a browser sends it. */
function multipart(fileName: string, content: Buffer | string): { body: Buffer; headers: Record<string, string> } {
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}


describe.each(engines)('AVM feed imports on %s', (engine) => {
  let server: TestServer;
  let folder: string;
  const previousDirs = process.env.CARTOGRAPH_IMPORT_DIRS;
  const upload = (slug: string, name: string, content: Buffer | string, token = server.adminToken) =>
    server.request('POST', `/avm/enrichments/${slug}/upload`, { token, ...multipart(name, content) });
  const importPath = (slug: string, path: string, token = server.adminToken) => server.request('POST', `/avm/enrichments/${slug}/import`, { token, body: { path } });
  const enrichment = async (slug: string) => (await server.request('GET', '/avm/enrichments', { token: server.adminToken })).body.results.find((row: { slug: string }) => row.slug === slug);
  const stored = async (table: string) => (await server.context.db.query<{ count: number }>(`select count(*)::int as count from ${table}`))[0].count;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'cartograph-feeds-'));
    process.env.CARTOGRAPH_IMPORT_DIRS = folder;
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
    if (previousDirs === undefined) delete process.env.CARTOGRAPH_IMPORT_DIRS;
    else process.env.CARTOGRAPH_IMPORT_DIRS = previousDirs;
  });

  it('imports the real CISA KEV catalogue gzipped, and again with the same result', async () => {
    const first = await upload('cisa-kev', 'known_exploited_vulnerabilities.json.gz', kevFile);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ slug: 'cisa-kev', status: 'imported', record_count: 1404, last_error: '' });
    expect(first.body.last_imported_at).toBeTruthy();
    const again = await upload('cisa-kev', 'kev.json', kevFile);
    expect(again.body).toMatchObject({ status: 'imported', record_count: 1404 });
    expect(await stored('avm_kev')).toBe(1404);
    const [log4shell] = await server.context.db.query("select date_added, due_date, known_ransomware_use from avm_kev where cve_id = 'CVE-2021-44228'");
    expect(log4shell).toEqual({ date_added: '2021-12-10', due_date: '2021-12-24', known_ransomware_use: 'Known' });
  });

  it('imports NVD files from an allowed folder, a yearly file adding to the CVEs of another, with their CPE products', async () => {
    writeFileSync(join(folder, 'nvdcve-2.0-2021.json'), JSON.stringify(nvdFeed(nvdRecords.slice(0, 4))));
    writeFileSync(join(folder, 'nvdcve-2.0-recent.json.gz'), gzipSync(JSON.stringify(nvdFeed(nvdRecords.slice(2)))));
    expect((await importPath('nvd-cve', join(folder, 'nvdcve-2.0-2021.json'))).body).toMatchObject({ status: 'imported', record_count: 4 });
    const second = await importPath('nvd-cve', join(folder, 'nvdcve-2.0-recent.json.gz'));
    expect(second.body).toMatchObject({ status: 'imported', record_count: nvdRecords.length });
    expect(await stored('avm_nvd_cves')).toBe(nvdRecords.length);
    const products = await server.context.db.query<{ vendor: string; product: string }>('select distinct vendor, product from avm_nvd_products');
    expect(products.map((row) => `${row.vendor}:${row.product}`).sort()).toEqual([
      'apache:log4j', 'google:chrome', 'microsoft:windows_10_22h2', 'microsoft:windows_11_23h2', 'microsoft:windows_server_2022', 'openbsd:openssh', 'openssl:openssl', 'tukaani:xz',
    ]);
    const [log4shell] = await server.context.db.query<{ cvss3_vector: string; cwes: string[]; description: string; configurations: { nodes: { cpeMatch: object[] }[] }[] }>(
      "select cvss3_vector, cwes, description, configurations from avm_nvd_cves where cve_id = 'CVE-2021-44228'",
    );
    expect(log4shell).toMatchObject({ cvss3_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', cwes: ['CWE-917', 'CWE-502'] });
    expect(log4shell.description).toMatch(/^Apache Log4j2 JNDI/);
    expect(log4shell.configurations[0].nodes[0].cpeMatch[2]).toEqual({ vulnerable: true, criteria: 'cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:*', versionStartIncluding: '2.13.0', versionEndExcluding: '2.15.0' });
  });

  it('rejects a truncated NVD file naming where it broke, and keeps the previous import in use', async () => {
    const whole = JSON.stringify(nvdFeed(nvdRecords), null, 1);
    const cut = whole.slice(0, whole.indexOf('CVE-2022-3786') + 200);
    writeFileSync(join(folder, 'cut.json'), cut);
    const answer = await importPath('nvd-cve', join(folder, 'cut.json'));
    expect(answer.status).toBe(400);
    expect(answer.body.path[0]).toMatch(/breaks after record 5: The file ends before the JSON is complete \(it looks truncated\) \(line \d+\)\. The previous import stays in use\./);
    const row = await enrichment('nvd-cve');
    expect(row).toMatchObject({ status: 'failed', record_count: nvdRecords.length });
    expect(row.last_error).toMatch(/truncated/);
    expect(await stored('avm_nvd_cves')).toBe(nvdRecords.length);

    const broken = JSON.stringify(nvdFeed([nvdRecords[0], { cve: { descriptions: [] } }]));
    expect((await upload('nvd-cve', 'page.json', broken)).body.file[0]).toMatch(/Record 2 of the NVD file is not a CVE 2.0 record: it has no cve.id/);
    const gzipCut = gzipSync(JSON.stringify(nvdFeed(nvdRecords))).subarray(0, 900);
    expect((await upload('nvd-cve', 'feed.json.gz', gzipCut)).body.file[0]).toMatch(/gzip data is damaged or cut short|truncated/);
    expect(await stored('avm_nvd_cves')).toBe(nvdRecords.length);
    expect(await stored("avm_imports where status <> 'committed'")).toBe(0);
  });

  it('imports the EPSS CSV plain or gzipped, and rejects a malformed line by its number', async () => {
    const plain = await upload('first-epss', 'epss_scores-2026-11-24.csv', epssCsv);
    expect(plain.body).toMatchObject({ status: 'imported', record_count: 4 });
    const [score] = await server.context.db.query("select score, percentile, score_date from avm_epss where cve_id = 'CVE-2021-44228'");
    expect(score).toEqual({ score: 0.94358, percentile: 0.99957, score_date: '2026-11-24' });
    expect((await upload('first-epss', 'epss.csv.gz', gzipSync(epssCsv))).body).toMatchObject({ status: 'imported', record_count: 4 });
    const broken = epssCsv.replace('CVE-2023-7024,0.17000,0.94500', 'CVE-2023-7024,high,0.94500');
    const answer = await upload('first-epss', 'epss.csv', broken);
    expect(answer.status).toBe(400);
    expect(answer.body.file[0]).toMatch(/Line 5 \(CVE-2023-7024\) has no EPSS score and percentile between 0 and 1/);
    const cutShort = epssCsv.trimEnd().slice(0, -8);
    expect((await upload('first-epss', 'epss.csv', cutShort)).body.file[0]).toMatch(/Line 6 \(CVE-2022-3602\)/);
    expect((await upload('first-epss', 'kev.json', '{"vulnerabilities": []}')).body.file[0]).toMatch(/should be the header cve,epss,percentile/);
    expect(await enrichment('first-epss')).toMatchObject({ status: 'failed', record_count: 4 });
    expect(await stored('avm_epss')).toBe(4);
  });

  it('refuses server paths outside the allowed folders, and callers who may not import', async () => {
    const outside = await importPath('cisa-kev', '/etc/passwd');
    expect(outside.status).toBe(400);
    expect(outside.body.path[0]).toMatch(/outside the folders this server may import from/);
    expect((await importPath('cisa-kev', join(folder, 'missing.json'))).body.path[0]).toMatch(/does not exist/);
    expect((await server.request('POST', '/avm/enrichments/other-feed/import', { token: server.adminToken, body: { path: join(folder, 'x') } })).status).toBe(400);
    expect((await server.request('POST', '/avm/enrichments/cisa-kev/import', { token: server.adminToken, body: {} })).status).toBe(400);

    const viewer = await createUserWithGroups(server, server.adminToken, 'feed.viewer', ['Viewers']);
    expect((await importPath('cisa-kev', join(folder, 'nvdcve-2.0-2021.json'), viewer.token)).status).toBe(403);
    const company = await server.request('POST', '/companies/companies', { token: server.adminToken, body: { name: 'Tenant' } });
    await server.request('POST', `/companies/companies/${company.body.id}/administrators`, { token: server.adminToken, body: { username: 'tenant.admin', password: userPassword } });
    const tenant = await server.signIn('tenant.admin', userPassword);
    const refused = await upload('cisa-kev', 'kev.json.gz', kevFile, tenant);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/only the provider company imports them/);
    expect((await enrichment('cisa-kev')).record_count).toBe(1404);
  });
});
