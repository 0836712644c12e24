// The OS lifecycle feed: endoflife.date's API answers read into cycles (the bundled snapshot is the API v1 answer for
// its operating systems; ubuntu.json and ios.json are API v0 answers), and each normalized OS matched to its product
// and cycle, on a given day, through the rules of schemas/normalization/os-lifecycle.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeDeviceFields, OsLifecycle, provenanceField, type Provenance } from '../../src/core/normalization/index.js';
import { FeedError } from '../../src/server/avm/feedText.js';
import { lifecycleRows, productOfSource, type LifecycleRow } from '../../src/server/lifecycle/lifecycleFeed.js';
import { bundledSnapshotFile, bundledSnapshotSource, cycleOfRow } from '../../src/server/lifecycle/osLifecycle.js';
import { bundledLifecycleRows } from '../support/bundledLifecycle.js';
import { formatDate } from '../../src/core/dates/index.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/lifecycle/${name}`, import.meta.url), 'utf8');
const bundled = readFileSync(bundledSnapshotFile, 'utf8');

async function* chunks(text: string, size = 4096): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

async function rowsOf(text: string, source = 'the uploaded file feed.json'): Promise<LifecycleRow[]> {
  const rows: LifecycleRow[] = [];
  for await (const row of lifecycleRows(chunks(text), source)) rows.push(row);
  return rows;
}

const failure = (text: string, source?: string) => rowsOf(text, source).then(() => null, (error: unknown) => error);
const bundledRows = await bundledLifecycleRows();
const lifecycleOn = (day: string) => new OsLifecycle(bundledRows.map(cycleOfRow), day);

/** A record's OS fields normalized with the bundled feed on a day: the lifecycle fields it gets and their provenance. */
function lifecycleFields(fields: Record<string, unknown[]>, day = '2026-11-28') {
  const provenance = normalizeDeviceFields(fields, { lifecycle: lifecycleOn(day) });
  const pick = (field: string) => fields[field]?.[0];
  return {
    distribution: pick('OS.Distribution'), version: pick('OS.Version'), endOfLife: pick('OS.EndOfLife'), endOfSupport: pick('OS.EndOfSupport'),
    endOfExtendedSupport: pick('OS.EndOfExtendedSupport'), supported: pick('OS.Supported'),
    reason: provenance.find((entry) => entry.rule.startsWith('os-lifecycle#'))?.reason,
  };
}

describe('the lifecycle feed parser', () => {
  it('reads the bundled snapshot, endoflife.date API v1 answer for 25 operating systems', async () => {
    expect(new Set(bundledRows.map((row) => row.product)).size).toBe(25);
    expect(bundledRows).toHaveLength(545);
    const find = (product: string, cycle: string) => bundledRows.find((row) => row.product === product && row.cycle === cycle);
    expect(find('ubuntu', '22.04')).toEqual({
      product: 'ubuntu', cycle: '22.04', label: "22.04 'Jammy Jellyfish' (LTS)", codename: 'Jammy Jellyfish', release_date: '2022-04-21', lts: true,
      eol_date: '2027-04-01', eol_ended: false, eoas_date: '2024-09-30', eoas_ended: true, eoes_date: '2032-04-09', eoes_ended: false, latest: '22.04.5', latest_date: '2024-09-12',
    });
    expect(find('windows', '10-22h2')).toMatchObject({ eol_date: '2025-10-14', eoas_date: '2025-10-14', eoes_date: '2028-10-10', latest: '10.0.19045' });
    // macOS has no active-support phase and, for a release Apple still patches, no end-of-life date.
    expect(find('macos', '14')).toMatchObject({ eol_date: null, eol_ended: false, eoas_ended: null, eoes_ended: null });
    expect(find('centos', '7')).toMatchObject({ eol_date: '2024-06-30', eol_ended: true });
  });

  it('names its source by the day of the snapshot it holds, as the console writes dates', () => {
    expect(bundledSnapshotSource).toContain(formatDate(JSON.parse(bundled).generated_at, 'date'));
  });

  it('reads an API v0 list of cycles, its product named by the file or the address, dates and booleans alike', async () => {
    const ubuntu = await rowsOf(fixture('ubuntu.json'), 'https://endoflife.date/api/ubuntu.json');
    expect(ubuntu).toHaveLength(44);
    expect(ubuntu.find((row) => row.cycle === '18.04')).toMatchObject({
      product: 'ubuntu', eol_date: '2023-05-31', eoas_date: '2023-05-31', eoes_date: '2028-04-01', lts: true, codename: 'Bionic Beaver',
    });
    // v0 writes `support: true` for a phase not over and `eol: false` for a release still patched.
    const ios = await rowsOf(fixture('ios.json'), 'the uploaded file ios.json');
    expect(ios.find((row) => row.cycle === '26')).toMatchObject({ product: 'ios', eol_date: null, eol_ended: false, eoas_date: null, eoas_ended: false });
    expect(ios.find((row) => row.cycle === '17')).toMatchObject({ eol_date: '2025-05-13', eoas_date: '2024-09-16' });
    expect([productOfSource('/srv/imports/ubuntu.json.gz'), productOfSource('https://endoflife.date/api/rocky-linux.json?x=1'), productOfSource('the uploaded file export (1).json')]).toEqual(['ubuntu', 'rocky-linux', null]);
  });

  it('reads an API v1 answer for one product', async () => {
    const full = JSON.parse(bundled);
    const one = { schema_version: '1.2.1', generated_at: full.generated_at, last_modified: full.generated_at, result: full.result.find((product: { name: string }) => product.name === 'rhel') };
    const rows = await rowsOf(JSON.stringify(one));
    expect(rows.map((row) => row.cycle)).toEqual(['10', '9', '8', '7', '6', '5', '4']);
    expect(rows[1]).toMatchObject({ product: 'rhel', eol_date: '2032-05-31', eoas_date: '2027-05-31', eoes_date: '2036-05-31' });
  });

  it('refuses a file that is not a lifecycle feed, naming what is wrong and where', async () => {
    const errors = await Promise.all([
      failure('{"vulnerabilities": ['),
      failure('{"catalogVersion": "2026.11.27", "vulnerabilities": []}'),
      failure(fixture('ubuntu.json'), 'the uploaded file export (1).json'),
      failure(JSON.stringify({ result: [{ name: 'ubuntu', releases: [{ name: '22.04', releaseDate: '2022-04-21' }] }] })),
      failure(JSON.stringify([{ cycle: '22.04', eol: '1st April 2027' }]), 'ubuntu.json'),
      failure(JSON.stringify({ result: [{ name: 'Ubuntu Linux', releases: [] }] })),
      failure('[]', 'ubuntu.json'),
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(FeedError);
    expect(errors.map((error) => (error as Error).message)).toEqual([
      expect.stringMatching(/^The lifecycle file is not JSON: /),
      expect.stringContaining('is not an endoflife.date feed'),
      expect.stringContaining('name the file after the product'),
      'Cycle 1 (22.04) of ubuntu has neither isEol nor eolFrom.',
      'Cycle 1 (22.04) of ubuntu has an unreadable eol ("1st April 2027"): a YYYY-MM-DD date or true/false is expected.',
      'Product 1 of the lifecycle feed has no valid name ("Ubuntu Linux").',
      'The lifecycle file holds no release cycles.',
    ]);
  });
});

describe('the OS lifecycle of a normalized device', () => {
  it.each([
    // [the source's OS fields, distribution, the feed's product and cycles, end of life, supported on 2026-11-28]
    [{ 'OS.FullOsString': ['Windows 11 Enterprise 25H2 10.0.26200'] }, 'Windows 11', 'windows 11-25h2-e', '2028-10-10', true],
    [{ 'OS.FullOsString': ['Microsoft Windows 11 Pro 10.0.26100'] }, 'Windows 11', 'windows 11-24h2-w', '2026-10-13', false],
    [{ 'OS.Type': ['Windows 10 Enterprise'], 'OS.Version': ['10.0 (19045)'] }, 'Windows 10', 'windows 10-22h2', '2025-10-14', false],
    [{ 'OS.FullOsString': ['Microsoft Windows 10 Enterprise LTSC 2021 10.0.19044'] }, 'Windows 10', 'windows 10-21h2-e-lts', '2027-01-12', true],
    [{ 'OS.FullOsString': ['Microsoft Windows Server 2022 Datacenter 10.0.20348'] }, 'Windows Server 2022', 'windows-server 2022', '2031-10-14', true],
    [{ 'OS.FullOsString': ['Windows Server 2012 R2 Standard 6.3.9600'] }, 'Windows Server 2012 R2', 'windows-server 2012-r2', '2023-10-10', false],
    [{ 'OS.FullOsString': ['Windows Server 2008 R2 Enterprise 6.1.7601'] }, 'Windows Server 2008 R2', 'windows-server 2008-r2-sp1', '2020-01-14', false],
    [{ 'OS.FullOsString': ['Windows 7 Professional Service Pack 1'] }, 'Windows 7', 'windows 7-sp1', '2020-01-14', false],
    [{ 'OS.FullOsString': ['Ubuntu 22.04.3 LTS'] }, 'Ubuntu', 'ubuntu 22.04', '2027-04-01', true],
    [{ 'OS.Type': ['Linux Ubuntu'], 'OS.Version': ['18.04.6 LTS'] }, 'Ubuntu', 'ubuntu 18.04', '2023-05-31', false],
    [{ 'OS.FullOsString': ['Debian GNU/Linux 12 (bookworm)'] }, 'Debian', 'debian 12', '2026-07-11', false],
    [{ 'OS.FullOsString': ['Red Hat Enterprise Linux 9.3 (Plow)'] }, 'RHEL', 'rhel 9', '2032-05-31', true],
    [{ 'OS.FullOsString': ['CentOS Linux release 7.9.2009 (Core)'] }, 'CentOS', 'centos 7', '2024-06-30', false],
    [{ 'OS.FullOsString': ['Rocky Linux 9.3 (Blue Onyx)'] }, 'Rocky Linux', 'rocky-linux 9', '2032-05-31', true],
    [{ 'OS.FullOsString': ['AlmaLinux 8.9 (Midnight Oncilla)'] }, 'AlmaLinux', 'almalinux 8', '2029-05-31', true],
    [{ 'OS.FullOsString': ['SUSE Linux Enterprise Server 15 SP5'] }, 'SLES', 'sles 15.5', '2024-12-31', false],
    [{ 'OS.FullOsString': ['Alpine Linux v3.19.1'] }, 'Alpine Linux', 'alpine-linux 3.19', '2025-11-01', false],
    [{ 'OS.FullOsString': ['Amazon Linux 2'] }, 'Amazon Linux', 'amazon-linux 2', '2026-06-30', false],
    [{ 'OS.FullOsString': ['Fedora Linux 39 (Workstation Edition)'] }, 'Fedora', 'fedora 39', '2024-11-26', false],
    [{ 'OS.FullOsString': ['CentOS Stream 9'] }, 'CentOS Stream', 'centos-stream 9', '2027-05-31', true],
    [{ 'OS.FullOsString': ['Mac OS X 10.15.7'] }, 'macOS', 'macos 10.15', '2026-02-02', false],
    [{ 'OS.FullOsString': ['macOS 14.4.1 (23E224)'] }, 'macOS', 'macos 14', undefined, true],
    [{ 'OS.Type': ['iOS'], 'OS.Version': ['17.4.1'] }, 'iOS', 'ios 17', '2025-05-13', false],
    [{ 'OS.Type': ['iPadOS'], 'OS.Version': ['18.1'] }, 'iPadOS', 'ipados 18', undefined, true],
    [{ 'OS.Type': ['Android'], 'OS.Version': ['13'] }, 'Android', 'android 13', '2026-03-02', false],
    [{ 'OS.FullOsString': ['VMware ESXi 8.0.2 build-22380479'] }, 'VMware ESXi', 'esxi 8.0', '2027-10-11', true],
    [{ 'OS.FullOsString': ['FreeBSD 14.1-RELEASE'] }, 'FreeBSD', 'freebsd 14.1', '2025-03-31', false],
    [{ 'OS.FullOsString': ['Cisco IOS XE Software, Version 17.09.04a'] }, 'Cisco IOS XE', 'cisco-ios-xe 17.9', '2026-07-29', false],
    [{ 'OS.FullOsString': ['Palo Alto Networks PAN-OS 11.1.2-h3'] }, 'PAN-OS', 'panos 11.1', '2027-05-03', true],
  ])('%j is %s, %s', (fields, distribution, cycle, endOfLife, supported) => {
    expect(lifecycleFields(fields as Record<string, unknown[]>)).toMatchObject({ distribution, endOfLife, supported, reason: `from lifecycle feed ${cycle}` });
  });

  it('gives the active and extended support of the products that have them', () => {
    expect(lifecycleFields({ 'OS.FullOsString': ['Ubuntu 22.04.3 LTS'] })).toMatchObject({ endOfSupport: '2024-09-30', endOfExtendedSupport: '2032-04-09' });
    expect(lifecycleFields({ 'OS.Type': ['Windows'], 'OS.Version': ['Windows 10'], 'OS.Build': ['19045'] })).toMatchObject({ endOfSupport: '2025-10-14', endOfExtendedSupport: '2028-10-10' });
    expect(lifecycleFields({ 'OS.FullOsString': ['Debian GNU/Linux 12 (bookworm)'] })).toMatchObject({ endOfSupport: undefined, endOfExtendedSupport: '2028-06-30' });
  });

  it('counts the end-of-life day as supported and the day after as not', () => {
    const enterprise = { 'OS.FullOsString': ['Windows 11 Enterprise 23H2 10.0.22631'] };
    expect(lifecycleFields(structuredClone(enterprise), '2026-11-10')).toMatchObject({ endOfLife: '2026-11-10', supported: true });
    expect(lifecycleFields(structuredClone(enterprise), '2026-11-11')).toMatchObject({ endOfLife: '2026-11-10', supported: false });
  });

  it('reads both Windows servicing cycles when the edition is unknown, and keeps only what they agree on', () => {
    const noEdition = () => ({ 'OS.Type': ['Windows'], 'OS.Version': ['10.0.22631.4460'] });
    // 23H2 Home and Pro ended on 2025-11-11, Enterprise and Education on 2026-11-10.
    expect(lifecycleFields(noEdition(), '2025-06-01')).toEqual(expect.objectContaining({ endOfLife: undefined, supported: true, reason: 'from lifecycle feed windows 11-23h2-e/11-23h2-w' }));
    expect(lifecycleFields(noEdition(), '2026-06-01')).toEqual(expect.objectContaining({ endOfLife: undefined, supported: undefined }));
    expect(lifecycleFields(noEdition(), '2026-11-28')).toEqual(expect.objectContaining({ endOfLife: undefined, supported: false }));
  });

  it('gives nothing for an OS the feed does not know, a release without a version, or without a feed', () => {
    for (const fields of [{ 'OS.FullOsString': ['Kali GNU/Linux Rolling 2024.1'] }, { 'OS.FullOsString': ['Ubuntu'] }, { 'OS.FullOsString': ['Ubuntu 9.04'] }]) {
      expect(lifecycleFields(fields)).toMatchObject({ endOfLife: undefined, supported: undefined, reason: undefined });
    }
    const fields: Record<string, unknown[]> = { 'OS.FullOsString': ['Ubuntu 18.04.6 LTS'] };
    normalizeDeviceFields(fields);
    expect(fields['OS.Supported']).toBeUndefined();
  });

  it('says where each lifecycle value came from on the source record', () => {
    const fields: Record<string, unknown[]> = { 'OS.Type': ['Linux Ubuntu'], 'OS.Version': ['18.04.6 LTS'] };
    normalizeDeviceFields(fields, { lifecycle: lifecycleOn('2026-11-28') });
    const lifecycle = (fields[provenanceField] as Provenance[]).filter((entry) => entry.rule === 'os-lifecycle#ubuntu');
    expect(lifecycle).toEqual([
      { field: 'OS.EndOfLife', raw: 'Ubuntu 18.04.6', value: '2023-05-31', rule: 'os-lifecycle#ubuntu', reason: 'from lifecycle feed ubuntu 18.04' },
      { field: 'OS.EndOfSupport', raw: 'Ubuntu 18.04.6', value: '2023-05-31', rule: 'os-lifecycle#ubuntu', reason: 'from lifecycle feed ubuntu 18.04' },
      { field: 'OS.EndOfExtendedSupport', raw: 'Ubuntu 18.04.6', value: '2028-04-01', rule: 'os-lifecycle#ubuntu', reason: 'from lifecycle feed ubuntu 18.04' },
      { field: 'OS.Supported', raw: 'Ubuntu 18.04.6', value: 'false', rule: 'os-lifecycle#ubuntu', reason: 'from lifecycle feed ubuntu 18.04' },
    ]);
    expect(fields['OS.Supported']).toEqual([false]);
  });

  it('names a product of the bundled snapshot in every rule', () => {
    const products = new Set(bundledRows.map((row) => row.product));
    const rules = JSON.parse(readFileSync(new URL('../../schemas/normalization/os-lifecycle.json', import.meta.url), 'utf8')).lifecycleProducts as { name: string; product: string }[];
    expect(rules.filter((rule) => !products.has(rule.product)).map((rule) => rule.name)).toEqual([]);
  });
});
