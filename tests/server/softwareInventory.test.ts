import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
