import { describe, expect, it } from 'vitest';
import { criterionHit, evaluateConfigurations, mapToCpe, parseCpe, upstreamVersion, versionCovered, vulnerableProducts, type CpeMatch, type CveConfiguration } from '../../src/core/software/cpe.js';
import { softwareIdentity } from '../../src/core/software/names.js';

// CPE names, NVD's version bounds and configurations, and the mapping of installed software to CPE products.

const installed = (vendor: string, product: string, version: string) => ({ vendor, product, version, name: product, mapping: 'test' });

describe('CPE names and version bounds', () => {
  it('parses CPE 2.3 names, escaped colons included, and refuses other text', () => {
    expect(parseCpe('cpe:2.3:a:apache:log4j:2.0:beta9:*:*:*:*:*:*')).toEqual({ part: 'a', vendor: 'apache', product: 'log4j', version: '2.0', update: 'beta9' });
    expect(parseCpe('cpe:2.3:a:acme:widget\\:server:1.0:*:*:*:*:*:*:*')?.product).toBe('widget:server');
    expect(parseCpe('cpe:/a:apache:log4j:2.0')).toBeNull();
    expect(parseCpe(42)).toBeNull();
  });

  it('compares installed versions as NVD writes them: epochs, revisions and macOS builds set aside', () => {
    expect(upstreamVersion('1:9.2p1-2+deb12u1')).toBe('9.2p1');
    expect(upstreamVersion('3.0.7-27.el9')).toBe('3.0.7');
    expect(upstreamVersion('2.4.1+dfsg-1')).toBe('2.4.1');
    expect(upstreamVersion('14.2.1 (23C71)')).toBe('14.2.1');
    expect(upstreamVersion('120.0.6099.130')).toBe('120.0.6099.130');
    expect(upstreamVersion('latest')).toBeNull();
  });

  it.each([
    [{ versionStartIncluding: '2.13.0', versionEndExcluding: '2.15.0' }, '2.14.1', true],
    [{ versionStartIncluding: '2.13.0', versionEndExcluding: '2.15.0' }, '2.15.0', false],
    [{ versionStartIncluding: '2.13.0', versionEndExcluding: '2.15.0' }, '2.13.0', true],
    [{ versionStartExcluding: '2.13.0', versionEndIncluding: '2.15.0' }, '2.13.0', false],
    [{ versionStartExcluding: '2.13.0', versionEndIncluding: '2.15.0' }, '2.15.0', true],
    [{ versionEndExcluding: '9.3' }, '1:9.2p1-2+deb12u1', true],
    [{ versionEndExcluding: '9.3' }, '1:9.6p1-3', false],
    [{ versionEndExcluding: '1.1.1l' }, '1.1.1k', true],
    [{ versionEndExcluding: '1.1.1l' }, '1.1.1', true],
    [{ versionEndExcluding: '1.1.1l' }, '1.1.1w', false],
    [{ versionEndExcluding: '10.0.19045.4046' }, '10.0.19045.3930', true],
    [{ versionEndExcluding: '10.0.19045.4046' }, '10.0.19045.4046', false],
    [{}, '', true],
    [{ versionEndExcluding: '2.0' }, '', false],
  ])('bounds %j cover %s: %s', (bounds, version, covered) => {
    const match: CpeMatch = { criteria: 'cpe:2.3:a:v:p:*:*:*:*:*:*:*:*', vulnerable: true, ...bounds };
    expect(Boolean(versionCovered(match, parseCpe(match.criteria)!, version))).toBe(covered);
  });

  it('matches fixed versions with their update, and version-less criteria whatever the version', () => {
    const beta: CpeMatch = { criteria: 'cpe:2.3:a:apache:log4j:2.0:beta9:*:*:*:*:*:*', vulnerable: true };
    expect(criterionHit(beta, installed('apache', 'log4j', '2.0-beta9'))?.versionReason).toBe('version 2.0-beta9 is 2.0-beta9');
    expect(criterionHit(beta, installed('apache', 'log4j', '2.0'))).toBeNull();
    expect(criterionHit({ criteria: 'cpe:2.3:a:tukaani:xz:5.6.1:*:*:*:*:*:*:*', vulnerable: true }, installed('tukaani', 'xz', '5.6.1-1'))).not.toBeNull();
    expect(criterionHit({ criteria: 'cpe:2.3:a:tukaani:xz:5.6.1:*:*:*:*:*:*:*', vulnerable: true }, installed('tukaani', 'xz', '5.6.1+really5.4.5-1'))).toBeNull();
    const versionless: CpeMatch = { criteria: 'cpe:2.3:o:microsoft:windows_server_2012:-:*:*:*:*:*:*:*', vulnerable: true };
    expect(criterionHit(versionless, installed('microsoft', 'windows_server_2012', '6.2.9200'))?.versionReason).toMatch(/every version \(version "-"\)/);
    expect(criterionHit(versionless, installed('microsoft', 'windows_server_2016', '6.2.9200'))).toBeNull();
  });
});

describe('configurations', () => {
  // A synthetic configuration of NVD's running-on shape: a vulnerable application AND the platforms it runs on.
  const runningOn: CveConfiguration[] = [{
    operator: 'AND',
    nodes: [
      { operator: 'OR', cpeMatch: [{ criteria: 'cpe:2.3:a:acme:reader:*:*:*:*:*:*:*:*', vulnerable: true, versionEndExcluding: '23.1' }] },
      { operator: 'OR', cpeMatch: [{ criteria: 'cpe:2.3:o:apple:macos:-:*:*:*:*:*:*:*', vulnerable: false }, { criteria: 'cpe:2.3:o:microsoft:windows:-:*:*:*:*:*:*:*', vulnerable: false }] },
    ],
  }];
  const device = (products: ReturnType<typeof installed>[]) => (c: number, n: number, m: number) => {
    const match = runningOn[c].nodes![n].cpeMatch![m];
    for (const product of products) {
      const hit = criterionHit(match, product);
      if (hit) return hit;
    }
    return null;
  };

  it('needs the platform when it is required, and names it as assumed otherwise', () => {
    const reader = installed('acme', 'reader', '22.0');
    expect(evaluateConfigurations(runningOn, device([reader]), false)).toBeNull();
    expect(evaluateConfigurations(runningOn, device([reader, installed('microsoft', 'windows', '10.0')]), false)).toMatchObject({ platforms: ['cpe:2.3:o:microsoft:windows:-:*:*:*:*:*:*:*'] });
    const assumed = evaluateConfigurations(runningOn, device([reader]), true);
    expect(assumed?.vulnerable.map((hit) => hit.criteria)).toEqual(['cpe:2.3:a:acme:reader:*:*:*:*:*:*:*:*']);
    expect(assumed?.platforms[0]).toMatch(/apple:macos.*assumed/);
    expect(evaluateConfigurations(runningOn, device([installed('acme', 'reader', '23.1')]), true)).toBeNull();
    expect(evaluateConfigurations(runningOn, device([installed('microsoft', 'windows', '10.0')]), true)).toBeNull();
  });

  it('lists the vulnerable products of configurations, not the platforms', () => {
    expect(vulnerableProducts(runningOn)).toEqual([{ vendor: 'acme', product: 'reader' }]);
  });
});

describe('installed software to CPE products', () => {
  const dictionary = new Map([['chrome', ['google']], ['openssl', ['openssl']], ['windows_10_22h2', ['microsoft']], ['log4j', ['apache']], ['reader', ['acme', 'other']]]);
  const lookup = { vendorsOf: (product: string) => dictionary.get(product) };
  const map = (name: string, vendor: string | null, overrides = new Map<string, string>(), reportedCpe: string | null = null) => mapToCpe({ ...softwareIdentity(name, vendor)!, reportedCpe }, lookup, overrides);

  it('explains each mapping', () => {
    expect(map('Google Chrome (x64)', 'Google LLC')).toEqual({ vendor: 'google', product: 'chrome', mapping: 'vendor and product as NVD names them (google:chrome)' });
    expect(map('openssl', 'Debian')).toEqual({ vendor: 'openssl', product: 'openssl', mapping: 'product name openssl, which one NVD vendor (openssl) has' });
    expect(map('log4j-core', null)?.mapping).toBe('built-in alias: log4j-core is apache:log4j');
    expect(map('Microsoft Windows 10 Enterprise 22H2', 'Microsoft Corporation')).toMatchObject({ vendor: 'microsoft', product: 'windows_10_22h2' });
    expect(map('Acme Reader', null, new Map([['acme reader', 'acme:reader']]))?.mapping).toBe('the administrator maps Acme Reader to acme:reader');
    expect(map('Widget', 'Acme', new Map(), 'cpe:2.3:a:acme:widget:1.0:*:*:*:*:*:*:*')).toMatchObject({ vendor: 'acme', product: 'widget' });
  });

  it('maps nothing it cannot explain: unknown products, products several vendors share', () => {
    expect(map('Mozilla Firefox', 'Mozilla')).toBeNull();
    expect(map('Reader', 'Somebody')).toBeNull();
  });
});

describe('installed software to CPE products by the titles of the CPE dictionary', () => {
  const titles = new Map([['mozilla firefox', 'mozilla:firefox'], ['7-zip', '7-zip:7-zip']]);
  const lookup = { vendorsOf: () => undefined, productTitled: (title: string) => titles.get(title) };
  const map = (name: string, vendor: string | null, overrides = new Map<string, string>()) => mapToCpe({ ...softwareIdentity(name, vendor)!, reportedCpe: null }, lookup, overrides);

  it('maps a displayed name that is one product title, saying so, and an administrator mapping still wins', () => {
    expect(map('Mozilla Firefox', 'Mozilla')).toEqual({ vendor: 'mozilla', product: 'firefox', mapping: 'NVD\'s CPE dictionary titles mozilla:firefox "mozilla firefox"' });
    expect(map('7-Zip', null)?.vendor).toBe('7-zip');
    expect(map('Mozilla Firefox', 'Mozilla', new Map([['mozilla firefox', 'mozilla:firefox_esr']]))?.product).toBe('firefox_esr');
    expect(map('Thunderbird', 'Mozilla')).toBeNull();
  });
});
