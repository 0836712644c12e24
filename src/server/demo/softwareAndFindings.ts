import { severityOfScore } from '../discovery/software/cvss.js';
import type { SourceRecord } from '../discovery/correlation/correlate.js';
import { fleetSources, type LabelledFleet } from './fleet.js';
import { seededRandom, type Random } from './random.js';
import { demoVulnerabilities, softwareByPlatform, vulnerabilityByCve, type DemoVulnerability, type Platform, type SoftwareTitle } from './softwareCatalogue.js';

/**
 * The labelled fleet's installed software and vulnerability findings, as the EDR (installed programs and packages,
 * and the vulnerabilities it derives from their versions), the MDM (the apps of the laptops it manages, named its
 * own way) and the network scanner (what it sees on the ports it probes, plus authenticated checks) report them.
 * Each machine gets one software profile, so the sources agree on versions and two of them often report the same
 * CVE on the same machine. Records carry only the device identifiers their source knows.
 */
export type DemoObservation = Pick<SourceRecord, 'connectionId' | 'fields'>;
export type SoftwareAndFindings = { software: DemoObservation[]; findings: DemoObservation[] };

type Installed = { title: SoftwareTitle; version: string; cves: string[]; installDate: string };
export type Machine = { platform: Platform; edr?: SourceRecord; mdm?: SourceRecord; scanner?: SourceRecord };

const prefixPlatforms: Record<string, Platform> = { srv: 'ubuntu', vm: 'rhel' };
/** Chance that a title not installed everywhere is on a given machine: 20–40 titles a machine. */
const optionalTitleChance = 0.55;

/** The machines of the fleet (retired CMDB records aside), each with its platform and its EDR, MDM and scanner records. */
export function machinesOf(fleet: LabelledFleet): Machine[] {
  const machines = new Map<string, Machine & { model?: string; hostname?: string }>();
  for (const record of fleet.records) {
    const device = fleet.truth.get(record.key);
    if (!device?.startsWith('device-')) continue;
    const machine = machines.get(device) ?? { platform: 'windows' };
    machines.set(device, machine);
    if (typeof record.fields.DeviceModel === 'string') machine.model = record.fields.DeviceModel;
    if (record.connectionId === fleetSources.edr.connectionId) machine.edr ??= record;
    if (record.connectionId === fleetSources.mdm.connectionId) machine.mdm = record;
    if (record.connectionId === fleetSources.scanner.connectionId) machine.scanner = record;
    if (record.connectionId !== fleetSources.cmdb.connectionId) machine.hostname ??= String(record.fields.Hostname);
  }
  for (const machine of machines.values()) {
    const prefix = machine.hostname?.split('-')[0] ?? '';
    machine.platform = prefixPlatforms[prefix] ?? (machine.model === 'MacBook Pro' ? 'macos' : 'windows');
  }
  return [...machines.values()].filter((machine) => machine.hostname);
}

const day = (random: Random, year: number, months: number) => new Date(Date.UTC(year, random.integer(months), 1 + random.integer(28))).toISOString().slice(0, 10);

function installedOn(random: Random, platform: Platform): Installed[] {
  return softwareByPlatform[platform]
    .filter((title) => title.base || random.chance(title.chance ?? optionalTitleChance))
    .map((title) => {
      const variant = random.pick(title.versions);
      return { title, version: variant.version, cves: variant.cves ?? [], installDate: day(random, 2023, 12) };
    });
}

/**
 * A Linux title the package manager installed: its package type and source package as the EDR reports them (dpkg's
 * `Source`, an RPM's source file without the epoch), which with the server's OS give it a package identity. Programs
 * outside the package manager (a jar, a binary built by hand) have none.
 */
function packageFields(platform: Platform, title: SoftwareTitle, version: string): Record<string, string> {
  if ((platform !== 'ubuntu' && platform !== 'rhel') || title.path) return {};
  const source = title.source ?? title.name;
  return platform === 'ubuntu'
    ? { SoftwarePackageType: 'deb', SoftwareSourcePackage: source }
    : { SoftwarePackageType: 'rpm', SoftwareSourcePackage: `${source}-${version.replace(/^\d+:/, '')}.src.rpm` };
}

/** The scanner's 1–5 severity scale (5 urgent), which does not always agree with the CVSS band. */
const scannerSeverity = (score: number | null) => (score === null ? 2 : score >= 9 ? 5 : score >= 7 ? 4 : score >= 4 ? 3 : 2);

function edrFinding(random: Random, machine: Machine, installed: Installed, vulnerability: DemoVulnerability): DemoObservation {
  const score = vulnerability.score ?? 0;
  return {
    connectionId: fleetSources.edr.connectionId,
    fields: {
      AgentId: machine.edr?.fields.AgentId, Hostname: machine.edr?.fields.Hostname, CveId: vulnerability.cve, Severity: severityOfScore(score).toUpperCase(), CvssScore: score,
      CvssVector: vulnerability.vector, SoftwareName: installed.title.name, SoftwareVersion: installed.version, ExploitKnown: vulnerability.kev,
      Status: random.chance(0.1) ? 'reopened' : 'open', FirstSeen: day(random, 2026, 10), LastSeen: '2026-11-24',
    },
  };
}

function scannerFinding(random: Random, machine: Machine, vulnerability: DemoVulnerability, evidence: string): DemoObservation {
  const [port, protocol] = vulnerability.port ?? [0, 'tcp'];
  return {
    connectionId: fleetSources.scanner.connectionId,
    fields: {
      Hostname: machine.scanner?.fields.Hostname, IpAddresses: machine.scanner?.fields.IpAddresses, VendorVulnerabilityId: vulnerability.qid, CveId: vulnerability.cve,
      Title: vulnerability.title, Severity: scannerSeverity(vulnerability.score), CvssScore: vulnerability.score, CvssVector: vulnerability.vector, Port: port, Protocol: protocol,
      Evidence: evidence, Solution: vulnerability.solution, Status: random.chance(0.05) ? 'Fixed' : random.chance(0.2) ? 'New' : 'Active', FirstSeen: day(random, 2026, 10), LastSeen: '2026-11-23',
    },
  };
}

/** Checks the scanner makes without an installed version to go by: the TLS set-up and the Windows network stack. */
function scannerOnlyChecks(random: Random, platform: Platform): DemoVulnerability[] {
  const byId = (id: string) => demoVulnerabilities.find((entry) => (entry.cve ?? entry.qid) === id) as DemoVulnerability;
  if (platform === 'windows') return random.chance(0.15) ? [byId('CVE-2024-38063')] : [];
  if (platform === 'macos') return [];
  return [...(random.chance(0.2) ? [byId('CVE-2016-2183')] : []), ...(random.chance(0.25) ? [byId('38169')] : [])];
}

/** Generates the fleet's software and findings; the same fleet and seed give the same rows on every machine. */
export function generateSoftwareAndFindings(fleet: LabelledFleet, seed = 42): SoftwareAndFindings {
  const random = seededRandom(seed + 3);
  const software: DemoObservation[] = [];
  const findings: DemoObservation[] = [];
  for (const machine of machinesOf(fleet)) {
    const installed = installedOn(random, machine.platform);
    if (machine.edr) {
      for (const entry of installed) {
        software.push({
          connectionId: fleetSources.edr.connectionId,
          fields: {
            AgentId: machine.edr.fields.AgentId, Hostname: machine.edr.fields.Hostname, SoftwareName: entry.title.name, SoftwareVendor: entry.title.vendor, SoftwareVersion: entry.version,
            InstallDate: entry.installDate, InstallPath: entry.title.path, ...packageFields(machine.platform, entry.title, entry.version),
          },
        });
      }
    }
    if (machine.mdm) {
      for (const entry of installed) {
        if (entry.title.mdm) software.push({ connectionId: fleetSources.mdm.connectionId, fields: { Hostname: machine.mdm.fields.Hostname, SerialNumber: machine.mdm.fields.SerialNumber, SoftwareName: entry.title.mdm.name, SoftwareVendor: entry.title.mdm.vendor, SoftwareVersion: entry.version } });
      }
    }
    for (const entry of installed) {
      for (const cve of entry.cves) {
        const vulnerability = vulnerabilityByCve.get(cve) as DemoVulnerability;
        if (machine.edr) findings.push(edrFinding(random, machine, entry, vulnerability));
        // The scanner sees what listens on a port it probes; its authenticated checks find the rest on some machines.
        if (machine.scanner && (vulnerability.port || random.chance(0.3))) findings.push(scannerFinding(random, machine, vulnerability, `${entry.title.name} ${entry.version} is installed`));
      }
    }
    if (machine.scanner) {
      for (const vulnerability of scannerOnlyChecks(random, machine.platform)) findings.push(scannerFinding(random, machine, vulnerability, vulnerability.cve ? 'Detected over the network' : 'Certificate issuer and subject are the same'));
    }
  }
  return { software, findings };
}
