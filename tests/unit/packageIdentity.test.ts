import { describe, expect, it } from 'vitest';
import { distributionEcosystem, ecosystemRelease, ecosystemsOfPackageSource, normalizePackageName, packageIdentity, parsePurl, sourcePackageName } from '../../src/core/software/packages.js';
import { cvesOfRecord } from '../../src/server/avm/osvFeed.js';
import { versionOrderOf } from '../../src/core/versionOrder/ecosystems.js';
import { affectedVersion, fixReached } from '../../src/core/versionOrder/osvRanges.js';

describe('package identity', () => {
  it('reads package URLs of every ecosystem, npm scopes and escaped characters included', () => {
    expect(parsePurl('pkg:deb/debian/curl@7.88.1-10%2Bdeb12u5?arch=amd64&distro=debian-12')).toEqual({ type: 'deb', namespace: 'debian', name: 'curl', version: '7.88.1-10+deb12u5', qualifiers: { arch: 'amd64', distro: 'debian-12' } });
    expect(parsePurl('pkg:npm/%40babel/traverse@7.23.1')).toMatchObject({ namespace: '@babel', name: 'traverse', version: '7.23.1' });
    expect(parsePurl('pkg:golang/github.com/gin-gonic/gin@v1.9.0')).toMatchObject({ namespace: 'github.com/gin-gonic', name: 'gin', version: 'v1.9.0' });
    expect(parsePurl('not a purl')).toBeNull();
  });

  it.each([
    [{ distribution: 'Debian', version: '12.5' }, 'Debian:12'],
    [{ distribution: 'Ubuntu', version: '22.04.3' }, 'Ubuntu:22.04:LTS'],
    [{ distribution: 'Ubuntu', version: '23.10' }, 'Ubuntu:23.10'],
    [{ distribution: 'RHEL', version: '9.3' }, 'Red Hat:enterprise_linux:9'],
    [{ distribution: 'Rocky Linux', version: '8.9' }, 'Rocky Linux:8'],
    [{ distribution: 'AlmaLinux', version: '9.3' }, 'AlmaLinux:9'],
    [{ distribution: 'Alpine Linux', version: '3.18.4' }, 'Alpine:v3.18'],
    [{ distribution: 'Windows 11', version: '23H2' }, null],
  ])('gives %j the ecosystem %s', (os, ecosystem) => {
    expect(distributionEcosystem(os)).toBe(ecosystem);
  });

  it('names a distribution package by its source package on the device’s release, and a language package by its coordinates', () => {
    expect(packageIdentity({ packageType: 'deb_packages', name: 'libcurl4', sourcePackage: 'curl', version: '7.88.1-10+deb12u5', os: { distribution: 'Debian', version: '12.5' } }))
      .toEqual({ ecosystem: 'Debian:12', name: 'curl', version: '7.88.1-10+deb12u5' });
    expect(packageIdentity({ purl: 'pkg:deb/ubuntu/libssl3@3.0.2-0ubuntu1.10?distro=ubuntu-22.04&upstream=openssl' })).toEqual({ ecosystem: 'Ubuntu:22.04:LTS', name: 'openssl', version: '3.0.2-0ubuntu1.10' });
    expect(packageIdentity({ purl: 'pkg:rpm/redhat/curl@7.76.1-26.el9_3.2?distro=rhel-9.3' })).toEqual({ ecosystem: 'Red Hat:enterprise_linux:9', name: 'curl', version: '7.76.1-26.el9_3.2' });
    // The epoch a purl keeps in its qualifier (trivy, syft) is part of the version the distribution compares.
    expect(packageIdentity({ purl: 'pkg:deb/debian/zlib1g@1.2.13.dfsg-1?arch=amd64&distro=debian-12.4&epoch=1', sourcePackage: 'zlib' })).toEqual({ ecosystem: 'Debian:12', name: 'zlib', version: '1:1.2.13.dfsg-1' });
    expect(packageIdentity({ purl: 'pkg:rpm/redhat/openssl-libs@3.0.7-25.el9_3?arch=x86_64&epoch=1&upstream=openssl-3.0.7-25.el9_3.src.rpm&distro=rhel-9.3' })).toEqual({ ecosystem: 'Red Hat:enterprise_linux:9', name: 'openssl-libs', sourceName: 'openssl', version: '1:3.0.7-25.el9_3' });
    expect(packageIdentity({ purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1' })).toEqual({ ecosystem: 'Maven', name: 'org.apache.logging.log4j:log4j-core', version: '2.14.1' });
    expect(packageIdentity({ purl: 'pkg:npm/%40babel/traverse@7.23.1' })).toEqual({ ecosystem: 'npm', name: '@babel/traverse', version: '7.23.1' });
    expect(packageIdentity({ packageType: 'python_packages', name: 'Jinja2', version: '3.1.2' })).toEqual({ ecosystem: 'PyPI', name: 'jinja2', version: '3.1.2' });
    // A distribution package on an OS OSV has no ecosystem for, or a Windows program: no identity, CPE decides.
    expect(packageIdentity({ packageType: 'rpm_packages', name: 'curl', version: '7.61.1-34.el8', os: { distribution: 'Oracle Linux', version: '8.9' } })).toBeNull();
    expect(packageIdentity({ packageType: 'programs', name: '7-Zip', version: '23.01' })).toBeNull();
  });

  it('normalizes names as each ecosystem compares them, and names what a source type may belong to', () => {
    expect(normalizePackageName('PyPI', 'Django_REST.framework')).toBe('django-rest-framework');
    expect(normalizePackageName('NuGet', 'Newtonsoft.Json')).toBe('newtonsoft.json');
    expect(normalizePackageName('Maven', 'org.apache.logging.log4j:log4j-core')).toBe('org.apache.logging.log4j:log4j-core');
    expect(ecosystemsOfPackageSource(null, 'deb_packages')).toEqual(['Debian', 'Ubuntu']);
    expect(ecosystemsOfPackageSource('pkg:pypi/requests@2.31.0', null)).toEqual(['PyPI']);
    expect(ecosystemRelease('Red Hat:enterprise_linux:9::appstream')).toBe('Red Hat:enterprise_linux:9');
  });

  it('counts Ubuntu ESM fixes for their release, and keeps FIPS and realtime builds apart', () => {
    expect(ecosystemRelease('Ubuntu:Pro:18.04:LTS')).toBe('Ubuntu:18.04:LTS');
    expect(ecosystemRelease('Ubuntu:Pro:FIPS-updates:22.04:LTS')).toBe('Ubuntu:Pro:FIPS-updates:22.04:LTS');
    expect(ecosystemRelease('Ubuntu:Pro:22.04:LTS:Realtime:Kernel')).toBe('Ubuntu:Pro:22.04:LTS:Realtime:Kernel');
  });

  it('names an RPM by its binary and its source package, with the epoch its purl gives', () => {
    expect(sourcePackageName('openssh-8.7p1-38.el9_4.1.src.rpm')).toBe('openssh');
    expect(sourcePackageName('openssh (1:8.9p1-3ubuntu0.10)')).toBe('openssh');
    expect(sourcePackageName('openssh@1:8.9p1-3ubuntu0.10')).toBe('openssh');
    const rhel = { distribution: 'RHEL', version: '9.4' };
    expect(packageIdentity({ packageType: 'rpm_packages', name: 'openssh-server', sourcePackage: 'openssh-8.7p1-34.el9.src.rpm', version: '8.7p1-34.el9', os: rhel }))
      .toEqual({ ecosystem: 'Red Hat:enterprise_linux:9', name: 'openssh-server', sourceName: 'openssh', version: '8.7p1-34.el9' });
    expect(packageIdentity({ purl: 'pkg:rpm/almalinux/openssl@3.0.7-27.el9?arch=x86_64&epoch=1&distro=almalinux-9.4' }))
      .toEqual({ ecosystem: 'AlmaLinux:9', name: 'openssl', version: '1:3.0.7-27.el9' });
  });

  it('reads the CVE of a distribution tracker’s record that a notice names upstream', () => {
    expect(cvesOfRecord({ id: 'USN-6859-1', aliases: [], upstream: ['UBUNTU-CVE-2024-6387'], related: [] })).toEqual(['CVE-2024-6387']);
    expect(cvesOfRecord({ id: 'DSA-5514-1', aliases: [], upstream: ['CVE-2023-4911', 'DEBIAN-CVE-2023-4911'], related: [] })).toEqual(['CVE-2023-4911']);
    expect(cvesOfRecord({ id: 'ALSA-2024:4312', aliases: [], upstream: [], related: ['CVE-2024-6387'] })).toEqual(['CVE-2024-6387']);
  });
});

describe('OSV affected ranges', () => {
  const dpkg = versionOrderOf('Debian:11');
  const maven = versionOrderOf('Maven');

  it('treats a backported fix as fixed and names the fix of the interval a version is in', () => {
    const ranges = [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.17.0-1~deb11u1' }] }];
    expect(affectedVersion('2.15.0-1~deb11u1', ranges, [], dpkg)).toEqual({ affected: true, fixed: '2.17.0-1~deb11u1', lastAffected: null });
    expect(affectedVersion('2.17.0-1~deb11u1', ranges, [], dpkg).affected).toBe(false);
    // An epoch outranks any upstream version.
    expect(affectedVersion('1:2.0-1', ranges, [], dpkg).affected).toBe(false);
    // The fix an unaffected version has: the greatest fix at or below it.
    const log4j = [{ type: 'ECOSYSTEM', events: [{ introduced: '2.13.0' }, { fixed: '2.15.0' }, { introduced: '0' }, { fixed: '2.3.1' }] }];
    expect(fixReached('2.17.1', log4j, maven)).toBe('2.15.0');
    expect(fixReached('2.12.0', log4j, maven)).toBe('2.3.1');
    expect(fixReached('2.3', log4j, maven)).toBeNull();
  });

  it('reads several intervals, last_affected, limit and listed versions', () => {
    const ranges = [{ type: 'ECOSYSTEM', events: [{ introduced: '2.13.0' }, { fixed: '2.15.0' }, { introduced: '0' }, { fixed: '2.3.1' }] }];
    expect(affectedVersion('2.14.1', ranges, [], maven)).toMatchObject({ affected: true, fixed: '2.15.0' });
    expect(affectedVersion('2.3', ranges, [], maven)).toMatchObject({ affected: true, fixed: '2.3.1' });
    expect(affectedVersion('2.12.0', ranges, [], maven).affected).toBe(false);
    expect(affectedVersion('1.4', [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { last_affected: '1.4' }] }], [], maven)).toEqual({ affected: true, fixed: null, lastAffected: '1.4' });
    expect(affectedVersion('1.5', [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { last_affected: '1.4' }] }], [], maven).affected).toBe(false);
    expect(affectedVersion('3.0', [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { limit: '3.0' }] }], [], maven).affected).toBe(false);
    expect(affectedVersion('0.9.1', [], ['0.9.0', '0.9.1'], null).affected).toBe(true);
    // An ecosystem without an order: its ranges cannot be read, only its listed versions.
    expect(affectedVersion('1.0', [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }], [], null).affected).toBe(false);
  });
});
