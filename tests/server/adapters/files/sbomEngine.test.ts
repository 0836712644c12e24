import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileEngines } from '../../../../src/server/adapters/files/fileEngines.js';
import { sbomMaximumBytes } from '../../../../src/server/adapters/sbom/sbomDocument.js';
import { loopbackAllowed } from '../../../support/outbound.js';
import { fetchAll, pathSource, scratchFolder } from './helpers.js';

// The SBOM engine on each of its sources: a file on the server, a folder of them (one bad file costs only itself),
// a download from a URL, and a small file sent with the form; and its connectivity check, which says what each
// SBOM describes or why it cannot be read.

const folder = scratchFolder();
const engines = createFileEngines({ dataDir: folder.path, importRoots: [folder.path] });
const fixtures = new URL('../../../../schemas/adapters/sbom/fixtures/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, fixtures));
const test = (config: Record<string, unknown>) => engines.sbom.test({ adapter: 'sbom', config, signal: AbortSignal.timeout(10_000), outbound: loopbackAllowed });
const folderSource = (path: string) => ({ source_type: 'folder', folder_path: path });
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  for (const name of ['syft-payments-api.cdx.json', 'trivy-nginx.spdx.json']) copyFileSync(new URL(name, fixtures), folder.file(name));
  mkdirSync(folder.file('drop'));
  for (const name of ['syft-payments-api.cdx.json', 'trivy-nginx.spdx.json', 'trivy-report.json']) copyFileSync(new URL(name, fixtures), join(folder.file('drop'), name));
  writeFileSync(join(folder.file('drop'), 'notes.txt'), 'not an SBOM, and not read: only *.json files are');
  // A link out of the folder is not followed: only regular files are read.
  symlinkSync('/etc/passwd', join(folder.file('drop'), 'passwd.json'));
  server = createServer((request, response) => {
    if (request.url === '/sboms/nginx.spdx.json') response.writeHead(200, { 'content-type': 'application/json' }).end(fixture('trivy-nginx.spdx.json'));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  folder.remove();
});

describe('the SBOM engine', () => {
  it('reads one file on the server: the image as a device and its packages as its software', async () => {
    const { records, warnings } = await fetchAll(engines.sbom, { source: pathSource(folder.file('trivy-nginx.spdx.json')) }, 'sbom');
    expect(records.map((record) => record.entity)).toEqual(['device', ...Array(6).fill('software')]);
    expect(records[0].fields).toMatchObject({ Hostname: 'nginx:1.25.3', Category: 'Container image', 'OS.FullOsString': 'debian 12.4' });
    expect(warnings).toEqual([]);
  });

  it('reads every SBOM of a folder, skipping one that is not an SBOM with a warning that names it', async () => {
    const { records, warnings } = await fetchAll(engines.sbom, { source: folderSource(folder.file('drop')) }, 'sbom');
    expect(records.filter((record) => record.entity === 'device').map((record) => record.fields.Hostname)).toEqual(['registry.corp.example.com/payments/api:2.3.1', 'nginx:1.25.3']);
    expect(records).toHaveLength(15);
    expect(warnings).toEqual([
      'syft-payments-api.cdx.json: 1 component without a name was skipped.',
      'trivy-report.json is a trivy JSON report, not an SBOM: run trivy with --format cyclonedx or --format spdx-json. It was skipped.',
    ]);
    // The folder allowed itself may be the source.
    expect((await fetchAll(engines.sbom, { source: folderSource(folder.path) }, 'sbom')).records).toHaveLength(15);
  });

  it('skips a file over the size an SBOM may have, and fails the fetch when no file of the folder can be read', async () => {
    const bad = folder.file('bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'huge.json'), Buffer.alloc(sbomMaximumBytes + 1, 0x20));
    writeFileSync(join(bad, 'broken.cdx.json'), '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [');
    await expect(fetchAll(engines.sbom, { source: folderSource(bad) }, 'sbom')).rejects.toThrow(/^None of the 2 SBOM files in .*bad can be read; the first: broken\.cdx\.json is not JSON: /);
    copyFileSync(new URL('web-01.corp.example.com.cdx.json', fixtures), join(bad, 'web-01.corp.example.com.cdx.json'));
    const { records, warnings } = await fetchAll(engines.sbom, { source: folderSource(bad) }, 'sbom');
    expect(records).toHaveLength(5);
    expect(warnings).toEqual(expect.arrayContaining(['huge.json is larger than 64 MB, the most one SBOM may be. It was skipped.', '2 SBOM files that cannot be read were skipped in total.']));
  });

  it('refuses folders outside the allowed ones, a folder that is a file, and an empty folder, with the reason', async () => {
    expect(await test({ source: folderSource('/etc') })).toEqual({ ok: false, reason: 'invalid_config', detail: `/etc is outside the folders this server may import from (${folder.path}).` });
    expect(await test({ source: folderSource(`${folder.path}/../..`) })).toMatchObject({ ok: false, detail: expect.stringMatching(/is outside the folders/) });
    expect(await test({ source: folderSource(folder.file('trivy-nginx.spdx.json')) })).toMatchObject({ ok: false, detail: expect.stringMatching(/is not a folder\.$/) });
    // A link inside the allowed folder that leads out of it is judged where it leads.
    symlinkSync('/etc', folder.file('etc-link'));
    expect(await test({ source: folderSource(folder.file('etc-link')) })).toMatchObject({ ok: false, detail: expect.stringMatching(/etc-link is outside the folders/) });
    mkdirSync(folder.file('empty'));
    expect(await test({ source: folderSource(folder.file('empty')) })).toMatchObject({ ok: false, detail: expect.stringMatching(/holds no SBOM file \(\*\.json or \*\.json\.gz\)\.$/) });
    const closed = createFileEngines({ dataDir: folder.path, importRoots: [] });
    expect(await closed.sbom.test({ adapter: 'sbom', config: { source: folderSource(folder.path) }, signal: AbortSignal.timeout(5000), outbound: loopbackAllowed })).toMatchObject({ ok: false, detail: expect.stringMatching(/^Reading files from the server is turned off/) });
  });

  it('says in its connectivity check what each SBOM describes, or why it cannot be read', async () => {
    expect(await test({ source: pathSource(folder.file('syft-payments-api.cdx.json')) })).toEqual({
      ok: true, detail: `${folder.file('syft-payments-api.cdx.json')} can be read: CycloneDX 1.6 by syft 1.0.1: image registry.corp.example.com/payments/api:2.3.1, 7 packages.`,
    });
    expect(await test({ source: folderSource(folder.file('drop')) })).toEqual({
      ok: true,
      detail: `2 of 3 SBOM files in ${folder.file('drop')} can be read: syft-payments-api.cdx.json (CycloneDX 1.6 by syft 1.0.1: image registry.corp.example.com/payments/api:2.3.1, 7 packages); trivy-nginx.spdx.json (SPDX 2.3 by trivy-0.50.1: image nginx:1.25.3, 6 packages). 1 cannot, the first: trivy-report.json is a trivy JSON report, not an SBOM: run trivy with --format cyclonedx or --format spdx-json.`,
    });
    writeFileSync(folder.file('report.json'), fixture('trivy-report.json'));
    expect(await test({ source: pathSource(folder.file('report.json')) })).toEqual({ ok: false, reason: 'invalid_config', detail: `${folder.file('report.json')} is a trivy JSON report, not an SBOM: run trivy with --format cyclonedx or --format spdx-json.` });
  });

  it('downloads an SBOM from a URL (the device named by the SBOM, not the URL), and reports a missing one', async () => {
    const { records } = await fetchAll(engines.sbom, { source: { source_type: 'url', file_url: `${baseUrl}/sboms/nginx.spdx.json` } }, 'sbom');
    expect(records[0].fields.Hostname).toBe('nginx:1.25.3');
    expect(records).toHaveLength(7);
    expect(await test({ source: { source_type: 'url', file_url: `${baseUrl}/sboms/missing.json` } })).toMatchObject({ ok: false, reason: 'http' });
  });

  it('reads a small SBOM sent with the form, named by its file when it names no machine', async () => {
    const content = fixture('web-01.corp.example.com.cdx.json').toString('base64');
    const { records, warnings } = await fetchAll(engines.sbom, { source: { source_type: 'upload', file: `data:application/json;base64,${content}`, file_name: 'app-07.cdx.json' } }, 'sbom');
    expect(records[0].fields).toMatchObject({ Hostname: 'app-07' });
    expect(warnings).toEqual([expect.stringMatching(/^app-07\.cdx\.json describes application "storefront"/)]);
    const named = await fetchAll(engines.sbom, { source: { source_type: 'upload', file: `data:application/json;base64,${content}`, file_name: 'x.json' }, host_name: 'app-08.corp.example.com' }, 'sbom');
    expect(named.records.map((record) => record.fields.Hostname ?? record.fields.DeviceId)).toEqual(Array(5).fill('app-08.corp.example.com'));
  });
});
