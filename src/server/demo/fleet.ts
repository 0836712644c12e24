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
export type LabelledFleet = { records: SourceRecord[]; truth: Map<string, string>; devices: number };

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
  const dockMacs = Array.from({ length: Math.max(1, Math.floor(count / 200)) }, () => mac(random, '00:e0:4c'));
  let cloneSerial: string | null = null;
  let clonesLeft = 0;

  for (let index = 0; index < count; index += 1) {
    const kind = random.pick<Kind>(['workstation', 'workstation', 'laptop', 'laptop', 'server', 'vm']);
    if (kind === 'vm' && clonesLeft === 0 && random.chance(0.3)) [cloneSerial, clonesLeft] = [`VMware-42 ${random.hex(8)}`, 5];
    const device = makeDevice(random, index, kind, kind === 'vm' && clonesLeft > 0 ? cloneSerial : null);
    if (kind === 'vm' && clonesLeft > 0) clonesLeft -= 1;
    const windows = device.os === 'Windows';

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
      });
    }
    if (random.chance(0.01)) {
      // A retired machine whose name was reused: only the CMDB still remembers it, with its own serial.
      emit(fleetSources.cmdb, `ci-retired-${index}`, `retired-${index}`, { Hostname: device.hostname, Domain: domain, SerialNumber: random.alphanumeric(10), DeviceModel: device.model });
    }
  }
  return { records, truth, devices: count };
}
