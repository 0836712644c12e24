import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import archiver from 'archiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFeedDownloads, downloadFeeds } from '../../src/server/avm/feedDownloads.js';
import { installPolicy } from '../../src/server/outbound/policy.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// The OSV feed through the API: an ecosystem's all.zip uploaded, a folder of records from an import folder, one
// record; all-or-nothing (a broken record fails the import naming its entry, the previous import staying in use),
// repeatable, and each import replacing the advisories it holds. Aliases and Debian's `upstream` tie each advisory
// to its CVE.

const fixtures = new URL('../fixtures/osv/', import.meta.url);
const records = readdirSync(fixtures).filter((name) => name.endsWith('.json')).sort().map((name) => ({ name, text: readFileSync(new URL(name, fixtures), 'utf8') }));
const boundary = '----cartograph-osv-boundary';

function multipart(fileName: string, content: Buffer): { body: Buffer; headers: Record<string, string> } {
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A ZIP of the given entries, as OSV's all.zip holds one record per entry. */
async function zipOf(entries: { name: string; text: string }[]): Promise<Buffer> {
  const archive = archiver('zip');
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve, reject) => { archive.on('end', resolve); archive.on('error', reject); });
  for (const entry of entries) archive.append(entry.text, { name: entry.name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

describe.each(engines)('the OSV feed on %s', (engine) => {
  let server: TestServer;
  let folder: string;
  const previousDirs = process.env.CARTOGRAPH_IMPORT_DIRS;
  const upload = (name: string, content: Buffer) => server.request('POST', '/avm/enrichments/osv/upload', { token: server.adminToken, ...multipart(name, content) });
  const advisories = () => server.context.db.query<{ osv_id: string; cves: string[]; withdrawn: string | null }>(
    "select osv_id, cves, withdrawn from avm_osv_advisories where import_id in (select id from avm_imports where slug = 'osv' and status = 'committed') order by osv_id",
  );
  const packages = () => server.context.db.query<{ osv_id: string; ecosystem: string; name: string; fixed: string }>(
    `select osv_id, ecosystem, name, ranges->0->'events'->1->>'fixed' as fixed from avm_osv_packages
      where import_id in (select id from avm_imports where slug = 'osv' and status = 'committed') order by osv_id, ecosystem, fixed`,
  );

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'cartograph-osv-'));
    process.env.CARTOGRAPH_IMPORT_DIRS = folder;
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
    if (previousDirs === undefined) delete process.env.CARTOGRAPH_IMPORT_DIRS;
    else process.env.CARTOGRAPH_IMPORT_DIRS = previousDirs;
  });

  it('imports an ecosystem archive, each advisory tied to its CVE, and again with the same result', async () => {
    const archive = await zipOf(records);
    const first = await upload('all.zip', archive);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ slug: 'osv', status: 'imported', record_count: 4, last_error: '' });
    expect(await advisories()).toEqual([
      { osv_id: 'DSA-5020-1', cves: ['CVE-2021-44228'], withdrawn: null },
      { osv_id: 'DSA-5022-1', cves: ['CVE-2021-45046'], withdrawn: null },
      { osv_id: 'DSA-5024-1', cves: ['CVE-2021-45105'], withdrawn: null },
      { osv_id: 'GHSA-jfh8-c2jp-5v3q', cves: ['CVE-2021-44228'], withdrawn: null },
    ]);
    const affected = await packages();
    expect(affected.filter((row) => row.osv_id === 'DSA-5020-1')).toEqual([
      { osv_id: 'DSA-5020-1', ecosystem: 'Debian:10', name: 'apache-log4j2', fixed: '2.15.0-1~deb10u1' },
      { osv_id: 'DSA-5020-1', ecosystem: 'Debian:11', name: 'apache-log4j2', fixed: '2.15.0-1~deb11u1' },
    ]);
    expect(affected.filter((row) => row.osv_id.startsWith('GHSA'))).toHaveLength(3);
    const again = await upload('all.zip', archive);
    expect(again.body).toMatchObject({ status: 'imported', record_count: 4 });
    expect(await packages()).toEqual(affected);
    const [{ count }] = await server.context.db.query<{ count: number }>("select count(*)::int as count from avm_imports where slug = 'osv'");
    expect(count).toBe(1);
  });

  it('imports a folder of records as one import, replacing the advisories it holds and keeping the others', async () => {
    const ghsa = JSON.parse(records.find((record) => record.name.startsWith('GHSA'))!.text);
    mkdirSync(join(folder, 'maven', 'nested'), { recursive: true });
    writeFileSync(join(folder, 'maven', 'nested', 'GHSA-jfh8-c2jp-5v3q.json'), JSON.stringify({ ...ghsa, withdrawn: '2024-01-01T00:00:00Z' }));
    writeFileSync(join(folder, 'maven', 'notes.txt'), 'not a record');
    const imported = await server.request('POST', '/avm/enrichments/osv/import', { token: server.adminToken, body: { path: join(folder, 'maven') } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ status: 'imported', record_count: 4 });
    expect((await advisories()).find((row) => row.osv_id.startsWith('GHSA'))).toEqual({ osv_id: 'GHSA-jfh8-c2jp-5v3q', cves: ['CVE-2021-44228'], withdrawn: '2024-01-01T00:00:00Z' });
    expect((await packages()).filter((row) => row.osv_id.startsWith('GHSA'))).toHaveLength(3);
  });

  it('rejects an archive with a broken record naming its entry, and keeps the previous import in use', async () => {
    const before = await packages();
    const broken = await zipOf([...records, { name: 'npm/broken.json', text: JSON.stringify({ summary: 'no id' }) }]);
    const answer = await upload('all.zip', broken);
    expect(answer.status).toBe(400);
    expect(answer.body.file[0]).toMatch(/all\.zip: npm\/broken\.json is not an OSV record: it has no id/);
    expect(answer.body.file[0]).toMatch(/The previous import stays in use/);
    const cut = await upload('all.zip', (await zipOf(records)).subarray(0, 200));
    expect(cut.status).toBe(400);
    expect(cut.body.file[0]).toMatch(/not a complete ZIP archive/);
    expect(await packages()).toEqual(before);
    const [{ staged }] = await server.context.db.query<{ staged: number }>("select count(*)::int as staged from avm_osv_packages where import_id not in (select id from avm_imports where status = 'committed')");
    expect(staged).toBe(0);
  });

  it('imports one record uploaded as JSON, and refuses a folder for a feed that reads files', async () => {
    const one = await upload('DSA-5024-1.json', Buffer.from(records.find((record) => record.name === 'DSA-5024-1.json')!.text));
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ status: 'imported', record_count: 4, status_detail: 'the uploaded file DSA-5024-1.json: 1 records read' });
    const refused = await server.request('POST', '/avm/enrichments/nvd-cve/import', { token: server.adminToken, body: { path: join(folder, 'maven') } });
    expect(refused.status).toBe(400);
  });

  it('downloads an ecosystem archive from its address, then asks only whether it changed', async () => {
    const archive = await zipOf(records);
    const asked: string[] = [];
    const http = createServer((request, response) => {
      const unchanged = request.headers['if-none-match'] === '"debian-1"';
      asked.push(`${request.url} ${unchanged ? 304 : 200}`);
      response.writeHead(unchanged ? 304 : 200, { etag: '"debian-1"' });
      response.end(unchanged ? undefined : archive);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/Debian/all.zip`;
      const settings = { ...defaultFeedDownloads, cisa_kev_url: '', first_epss_url: '', nvd_cve_urls: [], endoflife_date_urls: [], osv_urls: [url] };
      const first = await downloadFeeds(server.context.db, settings, installPolicy(server.context.config));
      expect(first).toEqual([{ slug: 'osv', url, outcome: 'imported', detail: `${url}: 4 records read.` }]);
      const second = await downloadFeeds(server.context.db, settings, installPolicy(server.context.config));
      expect(second.map((outcome) => outcome.outcome)).toEqual(['not_modified']);
      expect(asked).toEqual(['/Debian/all.zip 200', '/Debian/all.zip 304']);
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
