import { fleetSources, type LabelledFleet } from './fleet.js';
import { seededRandom, type Random } from './random.js';
import { machinesOf, type DemoObservation, type Machine } from './softwareAndFindings.js';
import type { Platform } from './softwareCatalogue.js';

/**
 * The labelled fleet's services and licenses, as its sources report them: the EDR lists each machine's Windows
 * services and daemons (name, display name, state, start type, account, the port it listens on), the network scanner
 * the open ports it reaches with their banners, and the CMDB the company's cloud services and its software contracts
 * (seats, cost, expiry, assigned users). The contracts are sized from the installations the EDR reports, so the
 * first discovery shows a license over-used, one expired, one about to expire and others within their seats.
 */
export type ServicesAndLicenses = { services: DemoObservation[]; licenses: DemoObservation[] };

type ServiceTemplate = {
  name: string; display: string; startType: string; account: string; chance?: number; running?: number;
  port?: number; scanned?: { service: string; banner: (platform: Platform) => string; product: string; version: string };
};

const ssh = { service: 'ssh', product: 'OpenSSH', version: '9.2p1', banner: (platform: Platform) => (platform === 'windows' ? 'SSH-2.0-OpenSSH_for_Windows_9.5' : platform === 'rhel' ? 'SSH-2.0-OpenSSH_8.7' : 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3') };
const nginx = (port: number) => ({ service: port === 443 ? 'https' : 'http', product: 'nginx', version: '1.24.0', banner: () => (port === 443 ? '' : 'HTTP/1.1 400 Bad Request Server: nginx/1.24.0') });

const servicesByPlatform: Record<Platform, ServiceTemplate[]> = {
  windows: [
    { name: 'WinDefend', display: 'Microsoft Defender Antivirus Service', startType: 'Auto', account: 'LocalSystem' },
    { name: 'wuauserv', display: 'Windows Update', startType: 'Manual', account: 'LocalSystem', running: 0.7 },
    { name: 'Spooler', display: 'Print Spooler', startType: 'Auto', account: 'LocalSystem', running: 0.85 },
    { name: 'CSFalconService', display: 'CrowdStrike Falcon Sensor Service', startType: 'Auto', account: 'LocalSystem' },
    { name: 'LanmanServer', display: 'Server', startType: 'Auto', account: 'LocalSystem', port: 445, scanned: { service: 'smb', product: 'Microsoft Windows SMB', version: '3.1.1', banner: () => '' } },
    { name: 'TermService', display: 'Remote Desktop Services', startType: 'Manual', account: 'NT Authority\\NetworkService', chance: 0.35, port: 3389, scanned: { service: 'rdp', product: 'Microsoft Terminal Services', version: '', banner: () => '' } },
    { name: 'sshd', display: 'OpenSSH SSH Server', startType: 'Auto', account: 'LocalSystem', chance: 0.1, port: 22, scanned: ssh },
  ],
  macos: [
    { name: 'com.crowdstrike.falcond', display: 'CrowdStrike Falcon', startType: 'Auto', account: 'root' },
    { name: 'com.openssh.sshd', display: 'Remote Login', startType: 'Disabled', account: 'root', running: 0.15, port: 22, scanned: ssh },
  ],
  ubuntu: [
    { name: 'ssh.service', display: 'OpenBSD Secure Shell server', startType: 'enabled', account: 'root', port: 22, scanned: ssh },
    { name: 'cron.service', display: 'Regular background program processing daemon', startType: 'enabled', account: 'root' },
    { name: 'falcon-sensor.service', display: 'CrowdStrike Falcon Sensor', startType: 'enabled', account: 'root' },
    { name: 'nginx.service', display: 'A high performance web server and a reverse proxy server', startType: 'enabled', account: 'www-data', chance: 0.4, port: 443, scanned: nginx(443) },
    { name: 'docker.service', display: 'Docker Application Container Engine', startType: 'enabled', account: 'root', chance: 0.3 },
  ],
  rhel: [
    { name: 'sshd.service', display: 'OpenSSH server daemon', startType: 'enabled', account: 'root', port: 22, scanned: ssh },
    { name: 'crond.service', display: 'Command Scheduler', startType: 'enabled', account: 'root' },
    { name: 'falcon-sensor.service', display: 'CrowdStrike Falcon Sensor', startType: 'enabled', account: 'root' },
    { name: 'postgresql.service', display: 'PostgreSQL database server', startType: 'enabled', account: 'postgres', chance: 0.25, port: 5432, scanned: { service: 'postgresql', product: 'PostgreSQL', version: '15.5', banner: () => '' } },
    { name: 'httpd.service', display: 'The Apache HTTP Server', startType: 'disabled', account: 'apache', chance: 0.2, running: 0 },
  ],
};

// systemd and Windows word their states differently; the EDR passes them on as the machine says.
const runningWord = (platform: Platform) => (platform === 'windows' ? 'Running' : platform === 'macos' ? 'running' : 'active');
const stoppedWord = (platform: Platform) => (platform === 'windows' ? 'Stopped' : platform === 'macos' ? 'not running' : 'inactive');

function machineServices(random: Random, machine: Machine, services: DemoObservation[]): void {
  for (const template of servicesByPlatform[machine.platform]) {
    if (template.chance !== undefined && !random.chance(template.chance)) continue;
    const running = random.chance(template.running ?? 1);
    if (machine.edr) {
      services.push({
        connectionId: fleetSources.edr.connectionId,
        fields: {
          AgentId: machine.edr.fields.AgentId, Hostname: machine.edr.fields.Hostname, ServiceName: template.name, DisplayName: template.display,
          State: running ? runningWord(machine.platform) : stoppedWord(machine.platform), StartType: template.startType, Account: template.account, Port: running ? template.port : undefined,
        },
      });
    }
    // The scanner reaches what listens: the ports of running services on the machines it scans.
    if (machine.scanner && running && template.port && template.scanned) {
      services.push({
        connectionId: fleetSources.scanner.connectionId,
        fields: {
          Hostname: machine.scanner.fields.Hostname, IpAddresses: machine.scanner.fields.IpAddresses, Port: template.port, Protocol: 'tcp', ServiceName: template.scanned.service,
          Product: template.scanned.product, Version: template.scanned.version || undefined, Banner: template.scanned.banner(machine.platform) || undefined,
        },
      });
    }
  }
}

/** Services of the company's clouds, as the CMDB lists them: on no device of the inventory. */
const cloudServices: Record<string, unknown>[] = [
  { ServiceName: 'payments-api', DisplayName: 'Payments API (AKS LoadBalancer)', Product: 'Azure Kubernetes Service', Port: 443, Protocol: 'tcp', Host: 'payments.corp.example.com' },
  { ServiceName: 'orders-db', DisplayName: 'Orders database', Product: 'Azure SQL Database', Port: 1433, Protocol: 'tcp', Host: 'orders-db.database.windows.net' },
  { ServiceName: 'corpdocs', DisplayName: 'Document storage account', Product: 'Azure Blob Storage', Port: 443, Protocol: 'tcp', Host: 'corpdocs.blob.core.windows.net' },
  { ServiceName: 'auth-gateway', DisplayName: 'Sign-in gateway', Product: 'AWS Application Load Balancer', Port: 443, Protocol: 'tcp', Host: 'auth-gw-1234567890.eu-west-1.elb.amazonaws.com' },
  { ServiceName: 'nightly-reports', DisplayName: 'Nightly reports job', Product: 'AWS Lambda', Host: 'arn:aws:lambda:eu-west-1:123456789012:function:nightly-reports' },
  { ServiceName: 'events-broker', DisplayName: 'Event broker', Product: 'Amazon MQ', Port: 5671, Protocol: 'tcp', Host: 'b-1a2b3c4d.mq.eu-west-1.amazonaws.com' },
];

/** How many EDR machines report a software title: what the contracts are sized from. */
function installsOf(software: DemoObservation[], name: string): number {
  return software.filter((record) => record.connectionId === fleetSources.edr.connectionId && record.fields.SoftwareName === name).length;
}

/** The company's software contracts (one row each), sized against the installations so each tells its own story. */
function contracts(random: Random, fleet: LabelledFleet, software: DemoObservation[]): DemoObservation[] {
  const usernames = fleet.users.filter((user) => user.connectionId === fleetSources.directory.connectionId).map((user) => String(user.fields.Username)).filter((name) => name !== 'undefined');
  const someUsers = (count: number) => Array.from({ length: Math.min(count, usernames.length) }, (_, index) => usernames[(index * 7 + random.integer(3)) % usernames.length]);
  const office = installsOf(software, 'Microsoft 365 Apps for enterprise - en-us');
  // Room for the machines only the MDM reports: only the first contract is meant to run short.
  const roomy = (name: string) => Math.ceil(installsOf(software, name) * 1.25) + 50;
  const rows: Record<string, unknown>[] = [
    // Over-used: fewer seats were bought than machines have it installed.
    { LicenseName: 'Microsoft 365 E3', SoftwareName: 'Microsoft 365 Apps for enterprise', Vendor: 'Microsoft', Metric: 'device', SeatsPurchased: Math.floor(office * 0.9), Cost: Math.floor(office * 0.9) * 432, Currency: 'EUR', PurchaseDate: '2025-07-01', ExpirationDate: '2027-06-30' },
    // Within its seats, about to expire.
    { LicenseName: 'Adobe Acrobat Pro', SoftwareName: 'Adobe Acrobat (64-bit)', Vendor: 'Adobe', Metric: 'device', SeatsPurchased: roomy('Adobe Acrobat (64-bit)'), Cost: roomy('Adobe Acrobat (64-bit)') * 239.88, Currency: 'EUR', PurchaseDate: '2025-12-20', ExpirationDate: '2026-12-19' },
    // Expired and not renewed.
    { LicenseName: 'Zoom Workplace Business', SoftwareName: 'Zoom Workplace (64-bit)', Vendor: 'Zoom Video Communications', Metric: 'device', SeatsPurchased: roomy('Zoom Workplace (64-bit)'), Cost: roomy('Zoom Workplace (64-bit)') * 199.9, Currency: 'EUR', PurchaseDate: '2024-11-01', ExpirationDate: '2026-10-31' },
    // Per user, assigned by name.
    { LicenseName: 'Microsoft Visio Plan 2', SoftwareName: 'Microsoft Visio - en-us', Vendor: 'Microsoft', Metric: 'user', SeatsPurchased: roomy('Microsoft Visio - en-us'), Cost: roomy('Microsoft Visio - en-us') * 180, Currency: 'EUR', PurchaseDate: '2025-03-01', ExpirationDate: '2027-02-28', AssignedUsers: someUsers(31).join('; ') },
    { LicenseName: 'Slack Business+', SoftwareName: 'Slack', Vendor: 'Slack Technologies', Metric: 'user', SeatsPurchased: Math.max(roomy('Slack'), 500), Cost: Math.max(roomy('Slack'), 500) * 150, Currency: 'EUR', PurchaseDate: '2025-09-01', ExpirationDate: '2026-08-31', AssignedUsers: someUsers(420).join('; ') },
  ];
  return rows.map((fields) => ({ connectionId: fleetSources.cmdb.connectionId, fields }));
}

/** Generates the fleet's services and licenses; the same fleet, software and seed give the same rows on every machine. */
export function generateServicesAndLicenses(fleet: LabelledFleet, software: DemoObservation[], seed = 42): ServicesAndLicenses {
  const random = seededRandom(seed + 5);
  const services: DemoObservation[] = [];
  for (const machine of machinesOf(fleet)) machineServices(random, machine, services);
  for (const fields of cloudServices) services.push({ connectionId: fleetSources.cmdb.connectionId, fields: { ...fields, ServiceKind: 'cloud' } });
  return { services, licenses: contracts(random, fleet, software) };
}
