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
  /** People as the directory, the MDM and the CMDB report them (records of entity `user`), and their truth. */
  users: SourceRecord[];
  userTruth: Map<string, string>;
};

export const fleetSources = {
  directory: { connectionId: 1, adapter: 'active-directory', label: 'Directory' },
  edr: { connectionId: 2, adapter: 'crowdstrike', label: 'EDR' },
  mdm: { connectionId: 3, adapter: 'microsoft-intune', label: 'MDM' },
  scanner: { connectionId: 4, adapter: 'qualys', label: 'Vulnerability scanner' },
  cmdb: { connectionId: 5, adapter: 'servicenow', label: 'CMDB' },
} as const satisfies Record<string, FleetSource>;

type Kind = 'workstation' | 'laptop' | 'server' | 'vm';
type Device = {
  id: string; kind: Kind; hostname: string; serial: string; macs: string[]; ip: string; os: string; osVersion: string;
  manufacturer: string; model: string; lastSeen: string;
};

const domain = 'corp.example.com';
const vendorOuis = [['00:14:22', 'Dell Inc.', 'OptiPlex 7090'], ['3c:d9:2b', 'HP', 'EliteBook 840 G8'], ['54:ee:75', 'Lenovo', 'ThinkPad T14'], ['a4:83:e7', 'Apple', 'MacBook Pro'], ['3c:a9:f4', 'Intel', 'NUC 11']] as const;
const operatingSystems = { workstation: ['Windows', '10.0.19045'], laptop: ['Windows', '10.0.22631'], server: ['Linux', 'Ubuntu 22.04'], vm: ['Linux', 'RHEL 9.3'] } as const;
const prefixes: Record<Kind, string> = { workstation: 'ws', laptop: 'lt', server: 'srv', vm: 'vm' };
const junkSerial = 'To Be Filled By O.E.M.';

function mac(random: Random, oui: string): string {
  return `${oui}:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}`;
}

function makeDevice(random: Random, index: number, kind: Kind, cloneSerial: string | null): Device {
  const [oui, manufacturer, model] = kind === 'vm' ? ['00:50:56', 'VMware, Inc.', 'VMware Virtual Platform'] : random.pick(vendorOuis);
  const [os, osVersion] = operatingSystems[kind];
  return {
    id: `device-${index}`, kind, hostname: `${prefixes[kind]}-${String(index).padStart(6, '0')}`,
    serial: cloneSerial ?? random.alphanumeric(10), macs: [mac(random, oui), ...(random.chance(0.3) ? [mac(random, oui)] : [])],
    ip: `10.${random.integer(64)}.${random.integer(256)}.${1 + random.integer(254)}`, os, osVersion, manufacturer, model,
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
  let cloneSerial: string | null = null;
  let clonesLeft = 0;

  for (let index = 0; index < count; index += 1) {
    const kind = random.pick<Kind>(['workstation', 'workstation', 'laptop', 'laptop', 'server', 'vm']);
    if (kind === 'vm' && clonesLeft === 0 && random.chance(0.3)) [cloneSerial, clonesLeft] = [`VMware-42 ${random.hex(8)}`, 5];
    const device = makeDevice(random, index, kind, kind === 'vm' && clonesLeft > 0 ? cloneSerial : null);
    if (kind === 'vm' && clonesLeft > 0) clonesLeft -= 1;
    const windows = device.os === 'Windows';
    if (kind === 'server') hostsOfServers.push(device.hostname);

    if (windows ? random.chance(0.9) : random.chance(0.3)) {
      emit(fleetSources.directory, `guid-${index}`, device.id, { Hostname: device.hostname.toUpperCase(), Domain: domain, 'OS.Type': device.os, 'OS.Version': device.osVersion, LastSeen: device.lastSeen });
    }
    if (random.chance(0.9)) {
      const installs = random.chance(0.01) ? 2 : 1;
      for (let install = 0; install < installs; install += 1) {
        const docked = kind === 'laptop' && random.chance(0.05) ? [random.pick(dockMacs)] : [];
        emit(fleetSources.edr, `aid-${index}-${install}`, device.id, {
          Hostname: device.hostname, Domain: domain, SerialNumber: device.serial, AgentId: `${random.hex(16)}`,
          MacAddresses: [device.macs[0].toUpperCase().replace(/:/g, '-'), ...docked], IpAddresses: [device.ip], 'OS.Type': device.os, LastSeen: device.lastSeen,
          ...(kind === 'workstation' || kind === 'laptop' ? { LastUsedUsers: [`CORP\\${assign.pick(people.accounts)}`] } : {}),
        });
      }
    }
    if (kind === 'laptop' && random.chance(0.8)) {
      // Phones and laptops on Wi-Fi often report a randomized (locally administered) MAC.
      const wifiMac = random.chance(0.5) ? `da:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}:${random.hex(2)}` : device.macs[0];
      emit(fleetSources.mdm, `mdm-${index}`, device.id, { Hostname: device.hostname, SerialNumber: device.serial, MacAddresses: [wifiMac], DeviceModel: device.model, 'OS.Type': device.os });
    }
    if (random.chance(0.6)) {
      emit(fleetSources.scanner, `qid-${index}`, device.id, { Hostname: `${device.hostname}.${domain}`, IpAddresses: [device.ip], MacAddresses: [device.macs[0]], 'OS.Type': device.os });
    }
    if (random.chance(0.7)) {
      const renamed = random.chance(0.03);
      emit(fleetSources.cmdb, `ci-${index}`, device.id, {
        Hostname: renamed ? `old-${device.hostname}` : device.hostname, Domain: domain,
        SerialNumber: kind !== 'vm' && random.chance(0.05) ? junkSerial : device.serial, DeviceManufacturer: device.manufacturer, DeviceModel: device.model,
        // The CMDB knows which server a virtual machine runs on.
        ...(kind === 'vm' && hostsOfServers.length ? { ParentHost: assign.pick(hostsOfServers) } : {}),
      });
    }
    if (random.chance(0.01)) {
      // A retired machine whose name was reused: only the CMDB still remembers it, with its own serial.
      emit(fleetSources.cmdb, `ci-retired-${index}`, `retired-${index}`, { Hostname: device.hostname, Domain: domain, SerialNumber: random.alphanumeric(10), DeviceModel: device.model });
    }
  }
  return { records, truth, devices: count, users: people.records, userTruth: people.truth };
}

const firstNames = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Edsger', 'Radia', 'Tim', 'Katherine', 'Donald', 'Hedy', 'John'];
const lastNames = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Allen', 'Dijkstra', 'Perlman', 'Berners-Lee', 'Johnson', 'Knuth', 'Lamarr', 'Backus'];

/**
 * People as three sources report them: the directory (account, domain, email, employee id), the MDM (user
 * principal name only) and the CMDB (employee id and email, some in capitals). Adversarial: namesakes share a
 * display name but never an account or employee id; CMDB rows with an old address or a shared team mailbox.
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
    if (random.chance(0.95)) emit(fleetSources.directory, `user-${index}`, person, { Username: account, Domain: 'CORP', Email: email, DisplayName: `${first} ${last}`, EmployeeId: employeeId, FirstName: first, LastName: last });
    if (random.chance(0.6)) emit(fleetSources.mdm, `mdm-user-${index}`, person, { UserPrincipalName: email, DisplayName: `${first} ${last}` });
    if (random.chance(0.5)) {
      // Some CMDB rows carry an old address or the team's shared mailbox: only the employee id ties them.
      const cmdbEmail = random.chance(0.03) ? 'it-team@example.com' : random.chance(0.03) ? `${account}@old.example.com` : random.chance(0.3) ? email.toUpperCase() : email;
      emit(fleetSources.cmdb, `sys-user-${index}`, person, { EmployeeId: employeeId, Email: cmdbEmail, DisplayName: `${first} ${last}` });
    }
  }
  return { records, truth, accounts };
}
