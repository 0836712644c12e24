// The demo's installed software and findings: deterministic, 20–40 titles a machine, vectors that score as NVD
// publishes them, the KEV flag as CISA lists it, and CVEs that the EDR and the scanner both report on one machine.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreVector } from '../../src/server/discovery/software/cvss.js';
import { fleetSources, generateLabelledFleet } from '../../src/server/demo/fleet.js';
import { generateSoftwareAndFindings } from '../../src/server/demo/softwareAndFindings.js';
import { demoVulnerabilities } from '../../src/server/demo/softwareCatalogue.js';

const fleet = generateLabelledFleet(400, 42);
const generated = generateSoftwareAndFindings(fleet, 42);
const kevFile = process.env.CISA_KEV_FILE ?? '/work/shared/data/cisa-kev/known_exploited_vulnerabilities.json';
const shortName = (hostname: unknown) => String(hostname).split('.')[0];

describe('the demo software and findings', () => {
  it('are the same on every run', () => {
    expect(generateSoftwareAndFindings(generateLabelledFleet(400, 42), 42)).toEqual(generated);
  });

  it('give each machine the EDR reports 20 to 40 titles on average, never fewer than 15', () => {
    const perAgent = new Map<unknown, number>();
    for (const row of generated.software.filter((item) => item.connectionId === fleetSources.edr.connectionId)) perAgent.set(row.fields.AgentId, (perAgent.get(row.fields.AgentId) ?? 0) + 1);
    const counts = [...perAgent.values()];
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...counts)).toBeLessThanOrEqual(45);
    const average = counts.reduce((sum, count) => sum + count, 0) / counts.length;
    expect(average).toBeGreaterThan(20);
    expect(average).toBeLessThan(40);
    // The MDM names some products its own way ("Microsoft" rather than "Microsoft Corporation").
    expect(generated.software.some((item) => item.connectionId === fleetSources.mdm.connectionId && item.fields.SoftwareVendor === 'Microsoft')).toBe(true);
  });

  it('carry CVSS v3.1 vectors that score as the catalogue says', () => {
    for (const vulnerability of demoVulnerabilities.filter((entry) => entry.vector)) {
      expect([vulnerability.cve, scoreVector(vulnerability.vector)?.base]).toEqual([vulnerability.cve, vulnerability.score]);
    }
  });

  it.skipIf(!existsSync(kevFile))('flag as known exploited exactly the CVEs on the CISA KEV catalogue', () => {
    const listed = new Set((JSON.parse(readFileSync(kevFile, 'utf8')) as { vulnerabilities: { cveID: string }[] }).vulnerabilities.map((entry) => entry.cveID));
    for (const vulnerability of demoVulnerabilities.filter((entry) => entry.cve)) expect([vulnerability.cve, vulnerability.kev]).toEqual([vulnerability.cve, listed.has(vulnerability.cve as string)]);
  });

  it('have CVEs that the EDR and the scanner both report on one machine', () => {
    const reporters = new Map<string, Set<number>>();
    for (const finding of generated.findings.filter((item) => item.fields.CveId)) {
      const key = `${shortName(finding.fields.Hostname)} ${finding.fields.CveId}`;
      reporters.set(key, (reporters.get(key) ?? new Set()).add(finding.connectionId));
    }
    const both = [...reporters.values()].filter((connections) => connections.size === 2).length;
    expect(both).toBeGreaterThan(10);
    expect(both).toBeLessThan(reporters.size / 2);
  });
});
