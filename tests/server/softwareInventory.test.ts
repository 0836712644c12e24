import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeWidget, widgetSettingsOf } from '../../src/server/dashboards/computeWidget.js';
import { followFindingStatuses } from '../../src/server/inventory/softwareLinks.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';
import { addSoftwareConnections } from './softwareFixtures.js';

describe.each(engines)('software and vulnerability inventories on %s', (engine) => {
  let server: TestServer;
  let discovery: { id: number; progress: { connections: { name: string; state: string; error: string; warnings: string[] }[]; assets: Record<string, number> } };
  beforeAll(async () => {
    server = await startTestServer(engine);
    await addSoftwareConnections(server.context.db);
    discovery = await runDiscoveryAndWait(server);
  });
  afterAll(() => server.stop());

  it('builds software, installations, vulnerabilities and findings from the sources that answered, with warnings for what it could not read', async () => {
    expect(discovery.progress.assets).toMatchObject({ device: 3, software: 4, vulnerability: 4 });
    const byName = Object.fromEntries(discovery.progress.connections.map((connection) => [connection.name, connection]));
    expect(byName['Unreachable scanner'].state).toBe('error');
    expect(byName['EDR applications'].warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^1 software records matched no device .*zz9999|^1 software records matched no device/), expect.stringMatching(/^1 software versions do not parse .*latest/)]));
    expect(byName['Scanner A'].warnings).toEqual(expect.arrayContaining([expect.stringMatching(/CVSS vectors are malformed.*CVSS:3\.1\/AV:N\)/), expect.stringMatching(/severities are not understood.*purple/)]));
    const db = server.context.db;
    const installations = await db.query<{ software_name: string; version: string; adapter: string }>('select software_name, version, adapter from snapshot_installations where discovery_id = $1 order by software_name, version', [discovery.id]);
    expect(installations).toHaveLength(7);
    const findings = await db.query<{ cve_id: string | null; severity: string; source_status: string; adapters: string[]; sources: object[]; ports: string[] }>(
      'select cve_id, severity, source_status, adapters, sources, ports from snapshot_findings where discovery_id = $1 order by cve_id nulls last', [discovery.id],
    );
    expect(findings.map((finding) => [finding.cve_id, finding.severity, finding.source_status, finding.sources.length])).toEqual([
      ['CVE-2023-48795', 'Medium', 'fixed', 1],
      ['CVE-2024-0001', 'Critical', 'open', 2],
      ['CVE-2024-3094', 'Critical', 'open', 1],
      [null, 'Medium', 'open', 1],
    ]);
    expect(findings[1].ports.sort()).toEqual(['443/tcp', '8443']);
  });
});

describe.each(engines)('software and vulnerability APIs on %s', (engine) => {
  let server: TestServer;
  let token: string;
  const post = (url: string, body: object, as = token) => server.request('POST', url, { token: as, body });
  const names = (answer: { body: { results: Record<string, unknown[]>[] } }, field: string) => answer.body.results.map((row) => row[field][0]);
  beforeAll(async () => {
    server = await startTestServer(engine);
    token = server.adminToken;
    await addSoftwareConnections(server.context.db);
    await runDiscoveryAndWait(server);
  });
  afterAll(() => server.stop());

  it('searches software with the device search body: filters, numeric sort, count, scroll and detail with versions', async () => {
    const all = await post('/appinventory/applications', { fields: ['Name', 'Vendor', 'InstallCount', 'Versions'], ordering: [{ field: 'InstallCount', order: 'desc' }], size: 50 });
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(4);
    expect(all.body.results[0]).toMatchObject({ Name: ['Google Chrome'], Vendor: ['Google'], InstallCount: [2], Versions: ['120.0.6099.130', '120.0.6099.71', '119.0.6045.199', '118.0.1'] });
    const openssl = await post('/appinventory/applications', { query: 'Name = openssl AND InstallCount >= 2' });
    expect(openssl.body.results).toEqual([expect.objectContaining({ Vendor: ['OpenSSL Project'], Versions: ['1:3.0.13-1', '3.0.11-1~deb12u2'], LatestVersion: ['1:3.0.13-1'], VulnerabilityCount: [0] })]);
    const xz = await post('/appinventory/applications', { query: 'Name = xz-utils' });
    expect(xz.body.results[0]).toMatchObject({ VulnerabilityCount: [1], Versions: ['latest'] });
    expect(xz.body.results[0].LatestVersion).toBeUndefined();

    const chrome = all.body.results[0].PrimaryKey[0];
    const detail = await post(`/appinventory/applications/${chrome}`, {});
    expect(detail.body).toMatchObject({ Name: ['Google Chrome'], versions: [{ version: '120.0.6099.130', devices: 1 }, { version: '120.0.6099.71', devices: 1 }, { version: '119.0.6045.199', devices: 1 }] });
    expect(detail.body.vulnerabilities.map((row: { cve_id: string }) => row.cve_id)).toEqual(['CVE-2024-0001']);
    // Software is reported through devices' records: the detail names every connection of its Connections.
    const named = new Set(detail.body.connections.map((connection: { id: number; name: string }) => connection.id));
    expect(detail.body.Connections.length).toBeGreaterThan(0);
    for (const id of detail.body.Connections) expect(named.has(Number(id))).toBe(true);
    expect((await post('/appinventory/applications/google chrome', {})).body.PrimaryKey).toEqual([chrome]);
    expect((await post('/appinventory/applications/nothing-like-it', {})).status).toBe(404);

    const installations = await server.request('GET', `/appinventory/installations?software=${chrome}`, { token });
    expect(installations.body.count).toBe(3);
    expect(installations.body.results.map((row: { hostname: string; version: string; adapters: string[] }) => [row.hostname, row.version])).toEqual([
      ['WS-0001', '119.0.6045.199'], ['WS-0001', '120.0.6099.130'], ['ws-0002', '120.0.6099.71'],
    ]);

    const first = await post('/appinventory/applications', { scrollable: true, size: 3, fields: ['Name'] });
    const second = await post('/appinventory/applications', { scrollable: true, size: 3, fields: ['Name'], scroll_id: first.body.scroll_id });
    expect(first.body.results.length + second.body.results.length).toBe(4);
  });

  it('searches vulnerabilities with scores from the vectors and severities normalized', async () => {
    const answer = await post('/avm/vulnerabilities', { ordering: [{ field: 'SeverityLevel', order: 'desc' }, { field: 'Score', order: 'desc' }], fields: ['CveId', 'Severity', 'Score', 'CvssVersion', 'Cvss2Score', 'Cvss4Score', 'AffectedDeviceCount', 'VendorVulnerabilityIds'] });
    expect(answer.body.count).toBe(4);
    expect(answer.body.results.map((row: Record<string, unknown[]>) => [row.CveId[0] ?? row.VendorVulnerabilityIds[0], row.Severity[0], row.Score[0], row.CvssVersion[0]])).toEqual([
      ['CVE-2024-3094', 'Critical', 10, '2.0'],
      ['CVE-2024-0001', 'Critical', 9.8, '3.1'],
      ['CVE-2023-48795', 'Medium', expect.any(Number), '4.0'],
      ['jsonfile:105484', 'Medium', 5.3, 'reported'],
    ]);
    const critical = await post('/avm/vulnerabilities', { query: 'Severity = Critical AND Score >= 9.9' });
    expect(names(critical, 'CveId')).toEqual(['CVE-2024-3094']);
    const detail = await post('/avm/vulnerabilities/CVE-2024-0001', {});
    expect(detail.body).toMatchObject({ CveId: ['CVE-2024-0001'], Cvss3Vector: ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'], AffectedDeviceCount: [1], finding_statuses: { open: 1 } });
    const findings = await server.request('GET', `/avm/findings?vulnerability=${detail.body.PrimaryKey[0]}`, { token });
    expect(findings.body.results).toEqual([expect.objectContaining({ hostname: 'WS-0001', status: 'open', adapters: ['jsonfile'], sources: [expect.objectContaining({ port: '443/tcp' }), expect.objectContaining({ port: '8443', evidence: expect.stringContaining('120.0.6099.199') })] })]);
  });

  it('follows relations from devices to software and vulnerabilities and back', async () => {
    const devices = (query: string) => post('/devices/devices', { query, fields: ['Hostname'], ordering: [{ field: 'Hostname' }] }).then((answer) => names(answer, 'Hostname'));
    expect(await devices('Vulnerability.Severity = Critical')).toEqual(['WS-0001', 'ws-0002']);
    expect(await devices('Software.Name = "Google Chrome" AND Software.Version = 120*')).toEqual(['WS-0001', 'ws-0002']);
    expect(await devices('Software.Name = "Google Chrome" AND Software.Version = 119*')).toEqual(['WS-0001']);
    expect(await devices('Software.Vendor = Google AND Hostname = ws-0002 AND Software.Version = 119*')).toEqual([]);
    expect(await devices('NOT Software.Name = "Google Chrome"')).toEqual(['srv-0003']);
    expect(await devices('Vulnerability.CveId = CVE-2023-48795 AND Vulnerability.Status = fixed')).toEqual(['srv-0003']);
    expect(await devices('Vulnerability.Port = 8443')).toEqual(['WS-0001']);
    const vulnerabilities = await post('/avm/vulnerabilities', { query: 'Device.OS.Type = Linux', fields: ['CveId'], ordering: [{ field: 'CveId' }] });
    expect(names(vulnerabilities, 'CveId')).toEqual(['CVE-2023-48795', 'CVE-2024-3094', undefined]);
    const software = await post('/appinventory/applications', { query: 'Device.Hostname = srv-* AND Installation.Version = 1:*', fields: ['Name'] });
    expect(names(software, 'Name')).toEqual(['openssl']);
    expect((await post('/devices/devices', { query: 'Software.Name = /(/' })).status).toBe(400);
  });

  it('fills the vulnerability widgets from the inventory, each segment opening the matching query', async () => {
    const widget = (kind: string) => computeWidget({ db: server.context.db, companyId: 1, userId: null, now: new Date() }, widgetSettingsOf({ kind }));
    const byOs = await widget('vulnerability_by_os');
    expect(byOs.rows).toEqual([
      { label: 'Linux', value: 2, devices: 2, query: 'Vulnerability.Status = open AND OS.Type = "Linux"' },
      { label: 'Windows', value: 1, devices: 1, query: 'Vulnerability.Status = open AND OS.Type = "Windows"' },
    ]);
    expect((await post('/devices/devices', { query: byOs.rows[0].query as string })).body.count).toBe(2);
    expect((await widget('vulnerability_by_source')).rows).toEqual([{ label: 'jsonfile', value: 3, devices: 3, query: 'Vulnerability.Status = open AND Vulnerability.Source = "jsonfile"' }]);
    expect((await widget('vulnerability_by_severity')).rows.map((row) => [row.label, row.value])).toEqual([['Critical', 2], ['Medium', 2]]);
    const bySoftware = await widget('vulnerability_by_software');
    expect(bySoftware.rows.map((row) => [row.label, row.value])).toEqual([['Google Chrome', 1], ['xz-utils', 1]]);
    expect((await post('/avm/vulnerabilities', { query: bySoftware.rows[1].query as string })).body.count).toBe(1);
  });

  it('keeps an analyst\'s finding status with who and why across discoveries, and records it', async () => {
    const [finding] = (await server.request('GET', '/avm/findings?search=CVE-2024-3094', { token })).body.results;
    const body = { status: 'false_positive', reason: 'Backported fix installed (xz 5.4.1-0.2).' };
    const changed = await post(`/avm/findings/${finding.id}/status`, body);
    expect(changed).toMatchObject({ status: 200, body: { status: 'false_positive', source_status: 'open', status_reason: body.reason, status_changed_by: 'admin' } });
    await runDiscoveryAndWait(server);
    const again = (await server.request('GET', '/avm/findings?status=false_positive', { token })).body.results;
    expect(again).toEqual([expect.objectContaining({ id: finding.id, status: 'false_positive', status_reason: body.reason })]);
    expect(await post('/devices/devices', { query: 'Vulnerability.Status = false_positive', fields: ['Hostname'] }).then((answer) => names(answer, 'Hostname'))).toEqual(['ws-0002']);
    const activities = await server.context.db.query("select username, target_id, result from activities where action = 'findings.set_status'");
    expect(activities).toEqual([{ username: 'admin', target_id: finding.id, result: 'success' }]);
    expect((await post(`/avm/findings/${finding.id}/status`, { status: 'ignored', reason: 'x' })).status).toBe(400);
    expect((await post(`/avm/findings/${finding.id}/status`, { status: 'fixed', reason: '   ' })).status).toBe(400);
    expect((await post('/avm/findings/0123456789abcdef0123.0123456789abcdef0123/status', body)).status).toBe(404);
  });

  it('moves a finding status to the same machine\'s finding when correlation regroups the device under a new asset id', async () => {
    const db = server.context.db;
    const [finding] = (await server.request('GET', '/avm/findings?status=false_positive', { token })).body.results;
    const [stored] = await db.query<{ vulnerability_asset: string; device_record_keys: string[] }>('select vulnerability_asset, device_record_keys from finding_statuses where finding_id = $1', [finding.id]);
    expect(stored.device_record_keys.length).toBeGreaterThan(0);
    // A later snapshot, written by hand and rolled back: the device gained a source whose record sorts first, so its
    // asset id (and the finding's id) changed; another finding of the same vulnerability is on an unrelated device.
    const rolledBack = new Error('rolled back');
    const moved = await db.transaction(async (connection) => {
      const [{ id }] = await connection.query<{ id: number }>("insert into discoveries (company_id, status, start_time, end_time) values (1, 'done', now(), now()) returning id");
      const device = (assetId: string, keys: string[]) =>
        connection.query("insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons) values ($1, 'device', $2, '{}', '{}', $3, '[]')", [id, assetId, keys]);
      const findingOn = (assetId: string) =>
        connection.query("insert into snapshot_findings (discovery_id, finding_id, device_asset, vulnerability_asset, source_status, adapters, sources) values ($1, $2, $3, $4, 'open', '{jsonfile}', '[]')", [id, `${stored.vulnerability_asset}.${assetId}`, assetId, stored.vulnerability_asset]);
      await device('regrouped', ['0:a-new-source', ...stored.device_record_keys]);
      await device('unrelated', ['0:another-machine']);
      await findingOn('unrelated');
      await findingOn('regrouped');
      await followFindingStatuses(connection, 1, id);
      const statuses = await connection.query<{ finding_id: string; status: string; device_record_keys: string[] }>("select finding_id, status, device_record_keys from finding_statuses where status = 'false_positive'");
      throw Object.assign(rolledBack, { statuses });
    }).catch((error: Error & { statuses?: unknown }) => {
      if (error !== rolledBack) throw error;
      return error.statuses;
    });
    expect(moved).toEqual([{ finding_id: `${stored.vulnerability_asset}.regrouped`, status: 'false_positive', device_record_keys: ['0:a-new-source', ...stored.device_record_keys] }]);
    // Rolled back: the published snapshot and the status are as they were.
    expect((await server.request('GET', '/avm/findings?status=false_positive', { token })).body.results).toEqual([expect.objectContaining({ id: finding.id })]);
  });

  it('holds software groups by query or by picking, and exports the software list', async () => {
    const chrome = (await post('/appinventory/applications', { query: 'Name = "Google Chrome"' })).body.results[0].PrimaryKey[0];
    const group = await post('/appinventory/groups', { name: 'Allowed', query: 'Name = openssl', software: [chrome] });
    expect(group.status).toBe(201);
    const held = await post(`/appinventory/groups/${group.body.id}/applications`, { fields: ['Name'], ordering: [{ field: 'Name' }] });
    expect(names(held, 'Name')).toEqual(['Google Chrome', 'openssl']);
    const exported = await post('/appinventory/export', { format: 'csv', fields: ['Name', 'Vendor', 'InstallCount'], ordering: [{ field: 'Name' }] });
    expect(exported.status).toBe(200);
    expect(String(exported.body)).toContain('Google Chrome,Google,2');
  });
});
