import type { SourceRecord } from '../discovery/correlation/correlate.js';
import { seededRandom, type Random } from './random.js';

/**
 * A labelled fleet: devices as five sources (directory, EDR, MDM, vulnerability scanner, CMDB) report them, with
 * the overlaps, conflicts and junk of real estates — and the truth (which records are one machine) kept beside them,
 * so correlation can be scored. Adversarial cases: shared docking-station MACs, cloned VMs with one serial,
 * renamed hosts (the CMDB keeps the old name), reused host names (a retired machine's stale CMDB record), junk
 * serials, reinstalled EDR agents (two records of one machine).
 */
export type FleetSource = { connectionId: number; adapter: string; label: string };
export type LabelledFleet = {
  records: SourceRecord[];
  truth: Map<string, string>;
  devices: number;
  /** People as the directory, the MDM, the CMDB and the HR system report them (records of entity `user`), and their truth. */
  users: SourceRecord[];
  userTruth: Map<string, string>;
};

export const fleetSources = {
  directory: { connectionId: 1, adapter: 'active-directory', label: 'Directory' },
  edr: { connectionId: 2, adapter: 'crowdstrike', label: 'EDR' },
  mdm: { connectionId: 3, adapter: 'microsoft-intune', label: 'MDM' },
  scanner: { connectionId: 4, adapter: 'qualys', label: 'Vulnerability scanner' },
  cmdb: { connectionId: 5, adapter: 'servicenow', label: 'CMDB' },
  hr: { connectionId: 6, adapter: 'bamboohr', label: 'HR' },
  network: { connectionId: 7, adapter: 'cisco-dna-center', label: 'Network controller' },
} as const satisfies Record<string, FleetSource>;

type Kind = 'workstation' | 'laptop' | 'server' | 'vm';
type Platform = 'windows10' | 'windows11' | 'macos' | 'ubuntu' | 'ubuntu1804' | 'rhel' | 'centos7';
type Device = {
  id: string; index: number; kind: Kind; platform: Platform; hostname: string; serial: string; macs: string[]; ip: string;
  /** The spellings sources use for the maker ("Dell Inc.", "DELL"): the CMDB and the MDM each write one. */
  makers: readonly string[]; model: string; lastSeen: string;
};

const domain = 'corp.example.com';
// Hardware by kind: each OUI is its maker's, and Apple makes the only Macs (macOS runs on nothing else). Every maker
// lists the spellings sources use for it, the CMDB and the MDM each writing one of them.
type Hardware = readonly [oui: string, spellings: readonly string[], model: string];
const dell = ['Dell Inc.', 'DELL', 'Dell Inc.'];
const hp = ['HP', 'Hewlett-Packard', 'HP Inc.'];
const lenovo = ['LENOVO', 'Lenovo'];
const hardware: Record<Exclude<Kind, 'vm'>, readonly Hardware[]> = {
  workstation: [['00:14:22', dell, 'OptiPlex 7090'], ['3c:d9:2b', hp, 'EliteDesk 800 G6'], ['54:ee:75', lenovo, 'ThinkCentre M70q'], ['3c:a9:f4', ['Intel Corporation', 'Intel(R) Client Systems'], 'NUC 11']],
  laptop: [['00:14:22', dell, 'Latitude 7440'], ['3c:d9:2b', hp, 'EliteBook 840 G8'], ['54:ee:75', lenovo, 'ThinkPad T14'], ['a4:83:e7', ['Apple Inc.', 'Apple'], 'MacBook Pro']],
  server: [['00:14:22', dell, 'PowerEdge R650'], ['3c:d9:2b', ['HPE', 'Hewlett Packard Enterprise'], 'ProLiant DL380 Gen10'], ['54:ee:75', lenovo, 'ThinkSystem SR650']],
};
const virtualHardware: Hardware = ['00:50:56', ['VMware, Inc.'], 'VMware Virtual Platform'];
/**
 * The OS each machine runs: Windows 11 25H2 on PCs, Ubuntu 22.04 on servers, RHEL 9 on virtual machines, macOS 14 on
 * Macs; and, as in every estate, a few left behind past their end of life (one workstation in eight on Windows 10
 * 22H2, one server in twelve on Ubuntu 18.04, one virtual machine in fifteen on CentOS 7), which the "Operating system
 * still supported" policy finds. Chosen by the machine's number, not the random stream, so correlation's truth stays.
 */
const platformOf = (kind: Kind, model: string, index: number): Platform => {
  if (kind === 'vm') return index % 15 === 7 ? 'centos7' : 'rhel';
  // Two numbers in each span of 24 (16), one odd and one even, so that both of the scanner's spellings occur.
  if (kind === 'server') return index % 24 === 5 || index % 24 === 18 ? 'ubuntu1804' : 'ubuntu';
  if (model === 'MacBook Pro') return 'macos';
  return kind === 'workstation' && (index % 16 === 3 || index % 16 === 10) ? 'windows10' : 'windows11';
};

/**
 * What each source writes of an operating system, as its real counterpart does (the directory's operatingSystem and
 * operatingSystemVersion, the EDR's platform, OS version and build, the MDM's OS and version, the scanner's one full
 * string, the CMDB's os and os_version); normalization makes one OS of them. Where a source writes several forms
 * (an EDR's Darwin kernel for some Macs), devices take them in turn.
 */
const osWritten: Record<Platform, Record<'directory' | 'edr' | 'mdm' | 'scanner' | 'cmdb', readonly Record<string, string>[]>> = {
  windows10: {
    directory: [{ 'OS.Type': 'Windows 10 Enterprise', 'OS.Version': '10.0 (19045)' }],
    edr: [{ 'OS.Type': 'Windows', 'OS.Version': 'Windows 10', 'OS.Build': '19045' }],
    mdm: [{ 'OS.Type': 'Windows', 'OS.Version': '10.0.19045.4291' }],
    scanner: [{ 'OS.FullOsString': 'Windows 10 Enterprise 22H2 10.0.19045' }, { 'OS.FullOsString': 'Microsoft Windows 10 Enterprise 10.0.19045 64-bit N/A Build 19045' }],
    cmdb: [{ 'OS.Type': 'Windows 10 Enterprise', 'OS.Version': '10.0.19045' }],
  },
  windows11: {
    directory: [{ 'OS.Type': 'Windows 11 Enterprise', 'OS.Version': '10.0 (26200)' }],
    edr: [{ 'OS.Type': 'Windows', 'OS.Version': 'Windows 11', 'OS.Build': '26200' }],
    mdm: [{ 'OS.Type': 'Windows', 'OS.Version': '10.0.26200.6899' }],
    scanner: [{ 'OS.FullOsString': 'Microsoft Windows 11 Enterprise 10.0.26200' }, { 'OS.FullOsString': 'Windows 11 Enterprise 25H2 10.0.26200' }],
    cmdb: [{ 'OS.Type': 'Microsoft Windows 11 Enterprise', 'OS.Version': '10.0.26200' }],
  },
  macos: {
    directory: [{ 'OS.Type': 'macOS', 'OS.Version': '14.4.1' }],
    edr: [{ 'OS.Type': 'Mac', 'OS.Version': 'Sonoma (14)' }, { 'OS.Type': 'Mac', 'OS.Version': 'Darwin 23.4.0' }],
    mdm: [{ 'OS.Type': 'macOS', 'OS.Version': '14.4.1 (23E224)' }],
    scanner: [{ 'OS.FullOsString': 'macOS 14.4.1 (23E224)' }, { 'OS.FullOsString': 'Apple macOS Sonoma 14.4.1' }],
    cmdb: [{ 'OS.Type': 'Mac OS X', 'OS.Version': '14.4.1' }],
  },
  ubuntu: {
    directory: [{ 'OS.Type': 'Ubuntu', 'OS.Version': '22.04' }],
    edr: [{ 'OS.Type': 'Linux', 'OS.Version': 'Ubuntu 22.04' }],
    mdm: [{ 'OS.Type': 'Linux', 'OS.Version': 'Ubuntu 22.04.3 LTS' }],
    scanner: [{ 'OS.FullOsString': 'Ubuntu 22.04.3 LTS' }, { 'OS.FullOsString': 'Linux Ubuntu 22.04' }],
    cmdb: [{ 'OS.Type': 'Linux Ubuntu', 'OS.Version': '22.04.3 LTS' }],
  },
  ubuntu1804: {
    directory: [{ 'OS.Type': 'Ubuntu', 'OS.Version': '18.04' }],
    edr: [{ 'OS.Type': 'Linux', 'OS.Version': 'Ubuntu 18.04' }],
    mdm: [{ 'OS.Type': 'Linux', 'OS.Version': 'Ubuntu 18.04.6 LTS' }],
    scanner: [{ 'OS.FullOsString': 'Ubuntu 18.04.6 LTS' }, { 'OS.FullOsString': 'Linux Ubuntu 18.04' }],
    cmdb: [{ 'OS.Type': 'Linux Ubuntu', 'OS.Version': '18.04.6 LTS' }],
  },
  rhel: {
    directory: [{ 'OS.Type': 'Red Hat Enterprise Linux', 'OS.Version': '9.3' }],
    edr: [{ 'OS.Type': 'Linux', 'OS.Version': 'RHEL 9.3' }],
    mdm: [{ 'OS.Type': 'Linux', 'OS.Version': 'Red Hat Enterprise Linux 9.3' }],
    scanner: [{ 'OS.FullOsString': 'Red Hat Enterprise Linux 9.3 (Plow)' }, { 'OS.FullOsString': 'Red Hat Enterprise Linux Server 9.3' }],
    cmdb: [{ 'OS.Type': 'Linux Red Hat', 'OS.Version': '9.3' }],
  },
  centos7: {
    directory: [{ 'OS.Type': 'CentOS Linux', 'OS.Version': '7.9.2009' }],
    edr: [{ 'OS.Type': 'Linux', 'OS.Version': 'CentOS 7.9' }],
    mdm: [{ 'OS.Type': 'Linux', 'OS.Version': 'CentOS Linux release 7.9.2009 (Core)' }],
    scanner: [{ 'OS.FullOsString': 'CentOS Linux release 7.9.2009 (Core)' }, { 'OS.FullOsString': 'Linux CentOS 7' }],
    cmdb: [{ 'OS.Type': 'Linux CentOS', 'OS.Version': '7.9.2009' }],
  },
};
const osFor = (device: Device, source: keyof (typeof osWritten)['rhel']) => {
  const forms = osWritten[device.platform][source];
  return forms[device.index % forms.length];
};
const spelling = (spellings: readonly string[], index: number) => spellings[index % spellings.length];
const prefixes: Record<Kind, string> = { workstation: 'ws', laptop: 'lt', server: 'srv', vm: 'vm' };
const junkSerial = 'To Be Filled By O.E.M.';

function mac(random: Random, oui: string): string {
  return `${oui}:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}`;
}

function makeDevice(random: Random, index: number, kind: Kind, cloneSerial: string | null): Device {
  // One pick per physical machine, as ever, so the fleet's random stream (and its correlation truth) stays the same.
  const [oui, spellings, model] = kind === 'vm' ? virtualHardware : random.pick(hardware[kind]);
  return {
    id: `device-${index}`, index, kind, platform: platformOf(kind, model, index), hostname: `${prefixes[kind]}-${String(index).padStart(6, '0')}`,
    serial: cloneSerial ?? random.alphanumeric(10), macs: [mac(random, oui), ...(random.chance(0.3) ? [mac(random, oui)] : [])],
    ip: `10.${random.integer(64)}.${random.integer(256)}.${1 + random.integer(254)}`, makers: spellings, model,
    lastSeen: new Date(Date.UTC(2026, 10, 1 + random.integer(21))).toISOString(),
  };
}

/** Generates `count` devices (and a few retired ones) as the five sources report them. */
export function generateLabelledFleet(count: number, seed = 42): LabelledFleet {
  const random = seededRandom(seed);
  const records: SourceRecord[] = [];
  const truth = new Map<string, string>();
  const emit = (source: FleetSource, sourceId: string, device: string, fields: Record<string, unknown>) => {
    const key = `${source.connectionId}:${sourceId}`;
    records.push({ key, adapter: source.adapter, connectionId: source.connectionId, fields });
    truth.set(key, device);
  };
  // People get their own random stream, so adding them leaves the devices (and their scores) as they were.
  const people = generatePeople(Math.max(1, Math.floor(count / 2)), seed + 1);
  const assign = seededRandom(seed + 2);
  const hostsOfServers: string[] = [];
  const dockMacs = Array.from({ length: Math.max(1, Math.floor(count / 200)) }, () => mac(random, '00:e0:4c'));
  const switchesUsed = new Set<string>();
  let cloneSerial: string | null = null;
  let clonesLeft = 0;

  for (let index = 0; index < count; index += 1) {
    const kind = random.pick<Kind>(['workstation', 'workstation', 'laptop', 'laptop', 'server', 'vm']);
    if (kind === 'vm' && clonesLeft === 0 && random.chance(0.3)) [cloneSerial, clonesLeft] = [`VMware-42 ${random.hex(8)}`, 5];
    const device = makeDevice(random, index, kind, kind === 'vm' && clonesLeft > 0 ? cloneSerial : null);
    if (kind === 'vm' && clonesLeft > 0) clonesLeft -= 1;
    // Workstations and laptops (Macs too, bound to the directory) join the directory; servers seldom do.
    const joined = kind === 'workstation' || kind === 'laptop';
    if (kind === 'server') hostsOfServers.push(device.hostname);

    if (joined ? random.chance(0.9) : random.chance(0.3)) {
      emit(fleetSources.directory, `guid-${index}`, device.id, { Hostname: device.hostname.toUpperCase(), Domain: domain, ...osFor(device, 'directory'), LastSeen: device.lastSeen });
    }
    if (random.chance(0.9)) {
      const installs = random.chance(0.01) ? 2 : 1;
      for (let install = 0; install < installs; install += 1) {
        const docked = kind === 'laptop' && random.chance(0.05) ? [random.pick(dockMacs)] : [];
        emit(fleetSources.edr, `aid-${index}-${install}`, device.id, {
          Hostname: device.hostname, Domain: domain, SerialNumber: device.serial, AgentId: `${random.hex(16)}`,
          MacAddresses: [device.macs[0].toUpperCase().replace(/:/g, '-'), ...docked], IpAddresses: [device.ip], ...osFor(device, 'edr'), LastSeen: device.lastSeen,
          ...(kind === 'workstation' || kind === 'laptop' ? { LastUsedUsers: [`CORP\\${assign.pick(people.accounts)}`] } : {}),
        });
      }
    }
    if (kind === 'laptop' && random.chance(0.8)) {
      // Phones and laptops on Wi-Fi often report a randomized (locally administered) MAC.
      const wifiMac = random.chance(0.5) ? `da:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}` : device.macs[0];
      emit(fleetSources.mdm, `mdm-${index}`, device.id, {
        Hostname: device.hostname, SerialNumber: device.serial, MacAddresses: [wifiMac], DeviceManufacturer: spelling(device.makers, index + 1), DeviceModel: device.model, ...osFor(device, 'mdm'),
      });
    }
    if (random.chance(0.6)) {
      emit(fleetSources.scanner, `qid-${index}`, device.id, { Hostname: `${device.hostname}.${domain}`, IpAddresses: [device.ip], MacAddresses: [device.macs[0]], ...osFor(device, 'scanner') });
    }
    if (random.chance(0.7)) {
      const renamed = random.chance(0.03);
      emit(fleetSources.cmdb, `ci-${index}`, device.id, {
        Hostname: renamed ? `old-${device.hostname}` : device.hostname, Domain: domain,
        SerialNumber: kind !== 'vm' && random.chance(0.05) ? junkSerial : device.serial, DeviceManufacturer: spelling(device.makers, index), DeviceModel: device.model, ...osFor(device, 'cmdb'),
        // The CMDB knows which server a virtual machine runs on.
        ...(kind === 'vm' && hostsOfServers.length ? { ParentHost: assign.pick(hostsOfServers) } : {}),
      });
    }
    if (kind === 'workstation' || kind === 'server') {
      // Wired machines as the network controller sees them: on an access switch's port, in the VLAN of their kind.
      // Chosen by the machine's number, not the random stream, so correlation's truth stays.
      const { name, port, vlan } = switchPortOf(kind, index);
      emit(fleetSources.network, `host-${index}`, device.id, { Hostname: `${device.hostname}.${domain}`, MacAddresses: [device.macs[0]], IpAddresses: [device.ip], ConnectedSwitch: name, SwitchPort: port, Vlan: vlan });
      switchesUsed.add(name);
    }
    if (random.chance(0.01)) {
      // A retired machine whose name was reused: only the CMDB still remembers it, with its own serial.
      emit(fleetSources.cmdb, `ci-retired-${index}`, `retired-${index}`, { Hostname: device.hostname, Domain: domain, SerialNumber: random.alphanumeric(10), DeviceModel: device.model });
    }
  }
  // The access switches themselves, as the network controller lists its network devices.
  for (const name of switchesUsed) {
    const number = Number(name.slice(-2));
    emit(fleetSources.network, `switch-${name}`, `switch-${name}`, {
      Hostname: name, IpAddresses: [`10.250.0.${number}`], SerialNumber: `FOC2${String(1000 + number)}X${number % 10}Z`, DeviceManufacturer: 'Cisco', DeviceModel: 'C9300-48P', Category: 'Switch',
    });
  }
  return { records, truth, devices: count, users: people.records, userTruth: people.truth };
}

/** A wired machine's switch (48 machines to an access switch), port and VLAN (10 for workstations, 30 for servers). */
function switchPortOf(kind: 'workstation' | 'server', index: number): { name: string; port: string; vlan: string } {
  const switchNumber = Math.floor(index / 48) % 40 + 1;
  return { name: `sw-access-${String(switchNumber).padStart(2, '0')}`, port: `GigabitEthernet1/0/${(index % 48) + 1}`, vlan: kind === 'workstation' ? '10' : '30' };
}

const firstNames = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Edsger', 'Radia', 'Tim', 'Katherine', 'Donald', 'Hedy', 'John'];
const departments = ['Engineering', 'Finance', 'Sales', 'Marketing', 'Operations', 'People', 'IT'];
const lastNames = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Allen', 'Dijkstra', 'Perlman', 'Berners-Lee', 'Johnson', 'Knuth', 'Lamarr', 'Backus'];

/**
 * People as four sources report them: the directory (account, domain, email, employee id, whether the account is
 * enabled), the MDM (user principal name only), the CMDB (employee id and email, some in capitals) and the HR system
 * (employee id, work email and employment: department, manager, status, start and end). Adversarial: namesakes
 * share a display name but never an account or employee id; CMDB rows with an old address or a shared team mailbox.
 * One person in 25 has left (HR says terminated); most leavers' accounts are disabled, but one in four is not: the
 * leavers the "Leavers with an active account" query finds.
 */
function generatePeople(count: number, seed: number): { records: SourceRecord[]; truth: Map<string, string>; accounts: string[] } {
  const random = seededRandom(seed);
  const records: SourceRecord[] = [];
  const truth = new Map<string, string>();
  const accounts: string[] = [];
  const emit = (source: FleetSource, sourceId: string, person: string, fields: Record<string, unknown>) => {
    const key = `${source.connectionId}:${sourceId}`;
    records.push({ key, adapter: source.adapter, connectionId: source.connectionId, fields });
    truth.set(key, person);
  };
  for (let index = 0; index < count; index += 1) {
    const [first, last] = [random.pick(firstNames), random.pick(lastNames)];
    const account = `${first[0]}${last}${index}`.toLowerCase().replace(/[^a-z0-9]/g, '');
    const email = `${first}.${last}.${index}@example.com`.toLowerCase();
    const employeeId = `E${String(10000 + index)}`;
    const person = `person-${index}`;
    accounts.push(account);
    // Leavers and their account state follow the person's number, not the random stream, so correlation's truth stays.
    const left = index % 25 === 7;
    const stillEnabled = !left || index % 100 === 7;
    if (random.chance(0.95)) emit(fleetSources.directory, `user-${index}`, person, { Username: account, Domain: 'CORP', Email: email, DisplayName: `${first} ${last}`, EmployeeId: employeeId, FirstName: first, LastName: last, Enabled: stillEnabled });
    const start = new Date(Date.UTC(2015 + (index % 10), index % 12, 1 + (index % 28)));
    emit(fleetSources.hr, `employee-${index}`, person, {
      EmployeeId: employeeId, Email: email, DisplayName: `${first} ${last}`, 'Employment.Status': left ? 'terminated' : index % 50 === 21 ? 'leave' : 'active',
      'Employment.Department': departments[index % departments.length], 'Employment.Manager': `${firstNames[(index + 3) % firstNames.length]} ${lastNames[(index + 5) % lastNames.length]}`,
      'Employment.StartDate': start.toISOString().slice(0, 10), ...(left ? { 'Employment.EndDate': new Date(Date.UTC(2026, 9, 1 + (index % 28))).toISOString().slice(0, 10) } : {}),
    });
    if (random.chance(0.6)) emit(fleetSources.mdm, `mdm-user-${index}`, person, { UserPrincipalName: email, DisplayName: `${first} ${last}` });
    if (random.chance(0.5)) {
      // Some CMDB rows carry an old address or the team's shared mailbox: only the employee id ties them.
      const cmdbEmail = random.chance(0.03) ? 'it-team@example.com' : random.chance(0.03) ? `${account}@old.example.com` : random.chance(0.3) ? email.toUpperCase() : email;
      emit(fleetSources.cmdb, `sys-user-${index}`, person, { EmployeeId: employeeId, Email: cmdbEmail, DisplayName: `${first} ${last}` });
    }
  }
  return { records, truth, accounts };
}
