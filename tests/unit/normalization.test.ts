import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createServerAjv } from '../../codegen/validators.js';
import { canonicalIp, canonicalMac, displayHostname, mostSpecificCategory, normalizeDeviceFields, parseOperatingSystem, provenanceField } from '../../src/core/normalization/index.js';

const folder = new URL('../../schemas/normalization/', import.meta.url);

describe('the normalization data files', () => {
  it('each follows normalization-rules.json, and every pattern compiles', () => {
    const validate = createServerAjv({ coerce: false }).compile(JSON.parse(readFileSync(new URL('normalization-rules.json', folder), 'utf8')));
    const files = readdirSync(folder).filter((name) => name !== 'normalization-rules.json');
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const name of files) {
      const data = JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as Record<string, unknown>;
      expect(validate(data), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const patterns = JSON.stringify(data).match(/"(?:pattern|versionPattern|buildPattern|serverPattern|manufacturer)":"((?:[^"\\]|\\.)*)"/g) ?? [];
      for (const entry of patterns) expect(() => new RegExp(JSON.parse(`{${entry}}`)[entry.slice(1, entry.indexOf('"', 1))], 'i')).not.toThrow();
    }
  });
});

describe('operating systems', () => {
  it.each([
    [['Microsoft Windows Server 2022 Datacenter 10.0.20348'], { type: 'Windows', distribution: 'Windows Server 2022', version: '21H2', build: '20348', edition: 'Datacenter' }],
    [['Red Hat Enterprise Linux 9.3 (Plow)'], { type: 'Linux', distribution: 'RHEL', version: '9.3' }],
    [['Mac OS X 10.15.7'], { type: 'macOS', distribution: 'macOS', version: '10.15.7' }],
    [['Ubuntu 22.04.3 LTS'], { type: 'Linux', distribution: 'Ubuntu', version: '22.04.3' }],
    [['Darwin 23.4.0'], { type: 'macOS', distribution: 'macOS', version: '14.4' }],
    // An EDR's platform "Mac" beside its kernel version: the Darwin version still gives macOS's.
    [['Mac', 'Darwin 23.4.0'], { type: 'macOS', distribution: 'macOS', version: '14.4' }],
    // Its platform "Windows" beside the product and a bare build: the build gives the release.
    [['Windows', 'Windows 11', '22631'], { type: 'Windows', distribution: 'Windows 11', version: '23H2', build: '22631' }],
    [['Windows', '10.0.22631'], { type: 'Windows', distribution: 'Windows 11', version: '23H2', build: '22631' }],
    // An agent that still calls Windows 11 "Windows 10": the build decides.
    [['Windows 10 Pro', '10.0.22631.4460'], { type: 'Windows', distribution: 'Windows 11', version: '23H2', build: '22631.4460', edition: 'Pro' }],
    // Cisco's IOS is never Apple's iOS.
    [['Cisco IOS 15.2(4)M'], { type: 'Cisco IOS', distribution: 'Cisco IOS', version: '15.2(4)M' }],
  ])('reads %j', (texts, expected) => {
    expect(parseOperatingSystem(texts)).toMatchObject(expected);
  });

  it('reads the server of a Windows build that both a client and a server have when the record calls it a server', () => {
    expect(parseOperatingSystem(['Windows', '10.0.17763'])).toMatchObject({ distribution: 'Windows 10', version: '1809' });
    expect(parseOperatingSystem(['Windows', '10.0.17763'], true)).toMatchObject({ distribution: 'Windows Server 2019', version: '1809' });
  });

  it('answers nothing for text that names no operating system', () => {
    expect(parseOperatingSystem(['unknown'])).toBeNull();
    expect(parseOperatingSystem([undefined, ''])).toBeNull();
  });
});

describe('addresses and host names', () => {
  it.each([['00-1A-2B-3C-4D-5E', '00:1a:2b:3c:4d:5e'], ['001a.2b3c.4d5e', '00:1a:2b:3c:4d:5e'], ['001A2B3C4D5E', '00:1a:2b:3c:4d:5e'], ['0:1a:2b:3c:4d:5e', '00:1a:2b:3c:4d:5e'], ['not a mac', 'not a mac']])('writes the MAC %s as %s', (raw, canonical) => {
    expect(canonicalMac(raw)).toBe(canonical);
  });

  it.each([['010.000.004.017', '10.0.4.17'], ['10.0.4.17', '10.0.4.17'], ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'], ['fe80:0:0:0:1:0:0:1', 'fe80::1:0:0:1'], ['999.1.1.1', '999.1.1.1'], ['::1', '::1']])('writes the IP %s as %s', (raw, canonical) => {
    expect(canonicalIp(raw)).toBe(canonical);
  });

  it('shows the host name most sources spell, ties going to the preferred source', () => {
    expect(displayHostname(['ws-0142', 'WS-0142', 'WS-0142'])).toBe('WS-0142');
    expect(displayHostname(['ws-0142', 'WS-0142'])).toBe('ws-0142');
    expect(displayHostname([])).toBeUndefined();
  });

  it('keeps the most specific of the categories a device’s sources give', () => {
    expect(mostSpecificCategory(['Server', 'Virtual machine'])).toBe('Virtual machine');
    expect(mostSpecificCategory(['Desktop', 'Laptop'])).toBe('Laptop');
    expect(mostSpecificCategory(['Kubernetes pod', 'Server'])).toBe('Server');
  });
});

describe('a device record', () => {
  it('is normalized in place and says where each value came from', () => {
    const fields: Record<string, unknown[]> = {
      'OS.Type': ['Windows 11'], DeviceManufacturer: ['Dell Inc.'], DeviceModel: ['Latitude 7440'], Category: ['Workstation'],
      MacAddresses: ['00-1A-2B-3C-4D-5E', '00:1a:2b:3c:4d:5e'], IpAddresses: ['10.0.4.17'],
    };
    const provenance = normalizeDeviceFields(fields);
    expect(fields).toMatchObject({ 'OS.Type': ['Windows'], 'OS.Distribution': ['Windows 11'], DeviceManufacturer: ['Dell'], Category: ['Laptop'], MacAddresses: ['00:1a:2b:3c:4d:5e'], IpAddresses: ['10.0.4.17'] });
    expect(fields[provenanceField]).toBe(provenance);
    expect(provenance).toContainEqual({ field: 'OS.Type', raw: 'Windows 11', value: 'Windows', rule: 'operating-systems#windows-client' });
    expect(provenance).toContainEqual({ field: 'DeviceManufacturer', raw: 'Dell Inc.', value: 'Dell', rule: 'manufacturers#Dell' });
    expect(provenance).toContainEqual({ field: 'Category', raw: 'Workstation', value: 'Laptop', rule: 'categories#laptop-model', reason: 'laptop model: DeviceModel is "Latitude 7440"' });
    // Values already canonical have no provenance.
    expect(provenance.some((entry) => entry.field === 'IpAddresses')).toBe(false);
  });

  it('recognises a virtual machine from its model and keeps a raw value no rule reads', () => {
    const fields: Record<string, unknown[]> = { 'OS.Type': ['Linux'], 'OS.Version': ['5.15.0-91-generic'], DeviceManufacturer: ['Microsoft Corporation'], DeviceModel: ['Virtual Machine'], Category: ['Server'] };
    normalizeDeviceFields(fields);
    expect(fields).toMatchObject({ 'OS.Type': ['Linux'], 'OS.Version': ['5.15.0-91-generic'], DeviceManufacturer: ['Microsoft'], Category: ['Virtual machine'] });
  });

  it('gives a record read from the memo the values and provenance of its own raw values', () => {
    // The same OS, manufacturer and model again (answered from the memo), a serial that names a VM (never memoised,
    // its raw value being the record's own), and addresses already canonical (kept as they are).
    const record = (serial: string): Record<string, unknown[]> => ({
      'OS.FullOsString': ['Microsoft Windows Server 2022 Datacenter 10.0.20348'], DeviceManufacturer: ['Dell Inc.'], DeviceModel: ['PowerEdge R750'], SerialNumber: [serial],
      MacAddresses: ['00:1a:2b:3c:4d:5e'], IpAddresses: ['10.0.4.17', '010.000.004.017'],
    });
    const [first, again] = [record('ABC123'), record('ABC123')];
    expect(normalizeDeviceFields(again)).toEqual(normalizeDeviceFields(first));
    expect(again).toEqual(first);
    expect(first).toMatchObject({ 'OS.Distribution': ['Windows Server 2022'], Category: ['Server'], MacAddresses: ['00:1a:2b:3c:4d:5e'], IpAddresses: ['10.0.4.17'] });
    const [one, two] = [record('VMware-42 1a 2b'), record('VMware-42 3c 4d')];
    normalizeDeviceFields(one);
    normalizeDeviceFields(two);
    expect(one[provenanceField]).toContainEqual(expect.objectContaining({ field: 'Category', value: 'Virtual machine', raw: 'VMware-42 1a 2b' }));
    expect(two[provenanceField]).toContainEqual(expect.objectContaining({ field: 'Category', value: 'Virtual machine', raw: 'VMware-42 3c 4d' }));
  });

  it('leaves a record without device hints as it is, with no provenance', () => {
    const fields: Record<string, unknown[]> = { Hostname: ['web-01'] };
    expect(normalizeDeviceFields(fields)).toEqual([]);
    expect(fields).toEqual({ Hostname: ['web-01'] });
  });
});
