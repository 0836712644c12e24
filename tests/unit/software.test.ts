import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/core/query/index.js';
import { foldVendorless, normalizeVendor, softwareIdentity } from '../../src/core/software/names.js';
import { compareVersions, parseVersion, sortVersionsDescending } from '../../src/core/software/versions.js';
import { scoreClusters } from '../../src/server/discovery/correlation/scoring.js';
import { compileQuery } from '../../src/server/query/compileQuery.js';
import { normalizeSeverity, scoreVector, severityOfScore } from '../../src/server/discovery/software/cvss.js';
import { labelledSoftware } from './softwareLabelled.js';

const sign = (value: number) => Math.sign(value) || 0;

describe('version comparison', () => {
  it.each([
    // Debian: epoch first, then upstream, then revision; `~` sorts before everything, even the end.
    ['1:3.0.11-1~deb12u2', '3.0.13-1', 1],
    ['3.0.11-1~deb12u2', '3.0.11-1', -1],
    ['3.0.11-1~deb12u2', '3.0.11-1~deb12u1', 1],
    ['1.0~rc1-1', '1.0-1', -1],
    ['2.36-9+deb12u4', '2.36-9+deb12u10', -1],
    ['5.6.0-0.2', '5.4.5-0.3', 1],
    // RPM: alphanumeric segments, separators ignored, a number newer than letters.
    ['3.0.7-27.el9', '3.0.7-24.el9', 1],
    ['1.0-1.el8_9', '1.0-1.el8', 1],
    ['2:1.0-1.el9', '1:9.9-1.el9', 1],
    ['5.2.5-8.el9_0', '5.2.5-8.el9_0', 0],
    // Windows and most vendors: dotted numbers, missing parts count as 0.
    ['10.0.19045.3803', '10.0.19045.392', 1],
    ['120.0.6099.130', '120.0.6099.71', 1],
    ['23.01', '23.1', 0],
    ['1.2', '1.2.0.0', 0],
    // macOS: marketing version, then build.
    ['14.2.1 (23C71)', '14.2 (23C64)', 1],
    ['14.2.1 (23C71)', '14.2.1 (23C64)', 1],
    ['13.6.3 (22G436)', '14.0 (23A344)', -1],
  ])('%s against %s is %i', (left, right, expected) => {
    expect(sign(compareVersions(left, right))).toBe(expected);
    expect(sign(compareVersions(right, left))).toBe(-expected || 0);
  });

  it('tells the styles apart and refuses text that is no version', () => {
    expect(parseVersion('1:3.0.11-1~deb12u2')?.style).toBe('debian');
    expect(parseVersion('3.0.7-27.el9')?.style).toBe('rpm');
    expect(parseVersion('14.2.1 (23C71)')?.style).toBe('macos');
    expect(parseVersion('10.0.19045.3803')?.style).toBe('dotted');
    expect(parseVersion('2.4.58-beta')?.style).toBe('generic');
    for (const junk of ['', '   ', 'latest', 'unknown', null, undefined, {}, 'x'.repeat(10) + '\u0000' + '1']) expect(parseVersion(junk)).toBeNull();
  });

  it('orders versions highest first with versions that do not parse last', () => {
    expect(sortVersionsDescending(['119.0.6045.199', 'unknown', '120.0.6099.130', '120.0.6099.71', '119.0.6045.199'])).toEqual(['120.0.6099.130', '120.0.6099.71', '119.0.6045.199', 'unknown']);
  });
});

describe('software names', () => {
  it('folds vendor aliases and company forms', () => {
    expect(normalizeVendor('Microsoft Corporation')).toEqual({ key: 'microsoft', name: 'Microsoft' });
    expect(normalizeVendor('Microsoft')).toEqual({ key: 'microsoft', name: 'Microsoft' });
    expect(normalizeVendor('Acme Widgets, Inc.')).toEqual({ key: 'acme widgets', name: 'Acme Widgets' });
    expect(normalizeVendor('  ')).toBeNull();
  });

  it('folds architectures, locales, editions and versions out of product names', () => {
    const key = (name: string, vendor: string | null) => softwareIdentity(name, vendor)?.key;
    expect(key('Mozilla Firefox (x64 en-US)', 'Mozilla')).toBe(key('Firefox', 'Mozilla Corporation'));
    expect(key('Microsoft 365 Apps for enterprise - en-us', 'Microsoft Corporation')).toBe(key('Microsoft 365 Apps for business - de-de', 'Microsoft'));
    expect(key('7-Zip 23.01 (x64)', 'Igor Pavlov')).toBe('7-zip|7-zip');
    expect(key('Microsoft Visual C++ 2013 Redistributable (x64)', 'Microsoft')).not.toBe(key('Microsoft Visual C++ 2015-2022 Redistributable (x64)', 'Microsoft'));
    expect(softwareIdentity('Google Chrome (x64)', null)).toMatchObject({ key: 'google|chrome', vendor: 'Google', name: 'Google Chrome' });
    expect(softwareIdentity('', 'Google')).toBeNull();
  });

  it('reaches precision 0.99 and recall 0.95 on the labelled set of installed software', () => {
    const entries = labelledSoftware.map((entry, index) => ({ ...entry, record: `r${index}`, identity: softwareIdentity(entry.name, entry.vendor)! }));
    const folded = foldVendorless(entries.map((entry) => entry.identity.key));
    const clusters = new Map<string, string[]>();
    for (const entry of entries) {
      const key = folded.get(entry.identity.key)!;
      clusters.set(key, [...(clusters.get(key) ?? []), entry.record]);
    }
    const truth = new Map(entries.map((entry) => [entry.record, entry.product]));
    const { precision, recall } = scoreClusters([...clusters.values()].map((records) => ({ records, reasons: [] })), truth);
    console.log(`software folding on ${entries.length} labelled installations: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    expect(precision).toBeGreaterThanOrEqual(0.99);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });
});

describe('CVSS and severities', () => {
  it('scores v2, v3.0, v3.1 and v4.0 vectors with the calculator', () => {
    expect(scoreVector('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toEqual({ version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', base: 9.8 });
    expect(scoreVector('CVSS:3.0/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N')).toMatchObject({ version: '3.0', base: 5.4 });
    expect(scoreVector('(AV:N/AC:L/Au:N/C:P/I:P/A:P)')).toMatchObject({ version: '2.0', base: 7.5 });
    expect(scoreVector('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N')).toMatchObject({ version: '4.0', base: 9.3 });
  });

  it('answers null for malformed, incomplete or unknown vectors instead of throwing', () => {
    for (const vector of ['', 'garbage', 'CVSS:3.1/AV:N', 'CVSS:3.1/AV:Q/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'CVSS:9.9/AV:N/AC:L', 42, null, 'x'.repeat(1000)]) {
      expect(scoreVector(vector)).toBeNull();
    }
  });

  it('normalizes the severities scanners write and bands scores', () => {
    expect(['critical', 'Important', 'Sev 4', 'level 3', 2, '5', 7.5, 'info', 'HIGH risk'].map(normalizeSeverity)).toEqual(['Critical', 'High', 'High', 'Medium', 'Low', 'Critical', 'High', 'Info', 'High']);
    for (const unknown of ['purple', '', 11, -1, null, {}]) expect(normalizeSeverity(unknown)).toBeNull();
    expect([9.8, 7, 6.9, 0.1, 0].map(severityOfScore)).toEqual(['Critical', 'High', 'Medium', 'Low', 'Info']);
  });
});

describe('queries across inventories', () => {
  const relations = { entity: 'device', discovery: '$1', companyId: 7, indexed: new Map() };
  const compile = (text: string) => compileQuery(parseQuery(text), { firstParameter: 3, relations });
  const occurrences = (sql: string, table: string) => sql.split(table).length - 1;

  it('compiles the conditions of one AND group under a prefix into one installation or finding', () => {
    const paired = compile('Software.Name = "Google Chrome" AND OS.Type = Windows AND Software.Version = 120*');
    expect(occurrences(paired.sql, 'snapshot_installations')).toBe(1);
    expect(paired.sql).toContain('lower(l.version) like');
    expect(paired.params).toContain('120%');
    const both = compile('Software.Name = Chrome AND Vulnerability.Severity = Critical');
    expect([occurrences(both.sql, 'snapshot_installations'), occurrences(both.sql, 'snapshot_findings')]).toEqual([1, 1]);
  });

  it('keeps NOT outside the relation and reads the analyst status only when asked', () => {
    const without = compile('NOT Software.Name = Chrome');
    expect(without.sql.startsWith('not (asset_id in (select l.device_asset from snapshot_installations')).toBe(true);
    expect(without.params).not.toContain(7);
    const status = compile('Vulnerability.Status = false_positive');
    expect(status.sql).toContain('finding_statuses');
    expect(status.params).toContain(7);
  });

  it('reads prefixed fields as plain fields when the caller does not follow relations', () => {
    expect(compileQuery(parseQuery('Software.Name = Chrome'), { firstParameter: 1 }).sql).not.toContain('snapshot_installations');
  });
});
