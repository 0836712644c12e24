// The demo fleet's sources write operating systems and manufacturers as their real counterparts do, and every
// device's hardware agrees with its operating system in every source: normalization, not the generator, cleans them.
import { describe, expect, it } from 'vitest';
import { normalizeDeviceFields } from '../../src/core/normalization/index.js';
import { generateLabelledFleet } from '../../src/server/demo/fleet.js';
import { flattenFields } from '../../src/server/discovery/normalize.js';
import { bundledLifecycle } from '../support/bundledLifecycle.js';

const fleet = generateLabelledFleet(2000, 42);
// The day the demo's records were last seen: every OS judged as on that day, whatever day the test runs.
const lifecycle = await bundledLifecycle('2026-11-28');
const osFields = ['OS.Type', 'OS.Version', 'OS.Build', 'OS.FullOsString'];

/** Each real device's records as a discovery stores them (flattened, then normalized). */
function normalizedByDevice() {
  const devices = new Map<string, Record<string, unknown[]>[]>();
  for (const record of fleet.records) {
    const device = fleet.truth.get(record.key)!;
    if (!device.startsWith('device-')) continue;
    const fields = flattenFields(record.fields);
    normalizeDeviceFields(fields, { lifecycle });
    devices.set(device, [...(devices.get(device) ?? []), fields]);
  }
  return devices;
}

describe('the demo fleet', () => {
  it('writes OS strings and manufacturers the way each source does, not pre-cleaned values', () => {
    const rawOs = new Set(fleet.records.flatMap((record) => osFields.map((field) => record.fields[field]).filter((value) => typeof value === 'string')));
    for (const written of ['Windows 11 Enterprise', 'Windows 10 Enterprise 22H2 10.0.19045', 'macOS 14.4.1 (23E224)', 'Ubuntu 22.04.3 LTS', 'Red Hat Enterprise Linux 9.3 (Plow)', 'Darwin 23.4.0']) {
      expect(rawOs).toContain(written);
    }
    const manufacturers = new Set(fleet.records.map((record) => record.fields.DeviceManufacturer));
    for (const written of ['Dell Inc.', 'DELL', 'HP', 'Hewlett-Packard', 'VMware, Inc.']) expect(manufacturers).toContain(written);
  });

  it('normalizes to one OS type per device, three across the fleet, and hardware that runs it', () => {
    const types = new Set<unknown>();
    for (const [device, records] of normalizedByDevice()) {
      const deviceTypes = new Set(records.flatMap((fields) => fields['OS.Type'] ?? []));
      expect(deviceTypes.size, `${device}: ${[...deviceTypes].join(', ')}`).toBeLessThanOrEqual(1);
      const [type] = deviceTypes;
      types.add(type);
      const makers = records.flatMap((fields) => [...(fields.DeviceManufacturer ?? []), ...(fields.DeviceModel ?? []).map((model) => (String(model).startsWith('MacBook') ? 'Apple' : 'not Apple'))]);
      // An Apple machine runs macOS and a machine running macOS is an Apple one, whichever source says which.
      if (type !== undefined) expect([device, makers.filter((maker) => (maker === 'Apple') !== (type === 'macOS'))], JSON.stringify(records)).toEqual([device, []]);
    }
    expect([...types].filter(Boolean).sort()).toEqual(['Linux', 'Windows', 'macOS']);
  });

  it('normalizes each device to one manufacturer and one distribution', () => {
    for (const [device, records] of normalizedByDevice()) {
      for (const field of ['DeviceManufacturer', 'OS.Distribution']) {
        const values = new Set(records.flatMap((fields) => fields[field] ?? []));
        expect(values.size, `${device} ${field}: ${[...values].join(', ')}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('runs a few machines on releases past their end of life and most on supported ones', () => {
    const devices = [...normalizedByDevice().values()];
    const unsupported = devices.filter((records) => records.some((fields) => fields['OS.Supported']?.includes(false)));
    const supported = devices.filter((records) => records.some((fields) => fields['OS.Supported']?.includes(true)) && !unsupported.includes(records));
    // Of the records that say an OS (the network controller's say none).
    const distributions = new Set(unsupported.flatMap((records) => records.filter((fields) => fields['OS.Distribution']).flatMap((fields) => `${fields['OS.Distribution']?.[0]} ${fields['OS.Version']?.[0]}`.split('.')[0])));
    expect([...distributions].sort()).toEqual(['CentOS 7', 'Ubuntu 18', 'Windows 10 22H2']);
    expect(unsupported.length / devices.length).toBeGreaterThan(0.03);
    expect(unsupported.length / devices.length).toBeLessThan(0.1);
    expect(supported.length / devices.length).toBeGreaterThan(0.85);
  });

  it('has a few leavers whose directory account is still enabled, the rest disabled', () => {
    const byPerson = new Map<string, Record<string, unknown>[]>();
    for (const record of fleet.users) byPerson.set(fleet.userTruth.get(record.key)!, [...(byPerson.get(fleet.userTruth.get(record.key)!) ?? []), record.fields]);
    const leavers = [...byPerson.values()].filter((records) => records.some((fields) => fields['Employment.Status'] === 'terminated'));
    const stillEnabled = leavers.filter((records) => records.some((fields) => fields.Enabled === true));
    expect(leavers.length).toBeGreaterThan(20);
    expect(stillEnabled.length).toBeGreaterThanOrEqual(3);
    expect(stillEnabled.length).toBeLessThan(leavers.length / 2);
  });

  it('puts every wired machine on an access switch port and VLAN the network controller also lists', () => {
    const switches = new Set(fleet.records.filter((record) => record.fields.Category === 'Switch').map((record) => record.fields.Hostname));
    const hosts = fleet.records.filter((record) => record.fields.ConnectedSwitch);
    expect(hosts.length).toBeGreaterThan(500);
    for (const host of hosts) {
      expect(switches).toContain(host.fields.ConnectedSwitch);
      expect(host.fields.SwitchPort).toMatch(/^GigabitEthernet1\/0\/\d+$/);
      expect(['10', '30']).toContain(host.fields.Vlan);
    }
  });
});
