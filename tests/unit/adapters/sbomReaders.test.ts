import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageIdentity } from '../../../src/core/software/packages.js';
import { parseSbom } from '../../../src/server/adapters/sbom/sbomDocument.js';

// The CycloneDX and SPDX readers on what syft, trivy and cdxgen write: the fixtures of schemas/adapters/sbom (shaped
// as those tools' outputs) and smaller documents shaped as their published examples and test goldens (trivy's
// docs/docs/supply-chain/sbom.md and its 2.2 integration fixture, syft's TestSPDXJSONImageEncoder golden).

const fixture = (name: string) => parseSbom(readFileSync(new URL(`../../../schemas/adapters/sbom/fixtures/${name}`, import.meta.url)), name);
const parse = (document: unknown, label = 'sbom.json') => parseSbom(Buffer.from(JSON.stringify(document)), label);
const digest = (seed: string) => `sha256:${seed.repeat(64).slice(0, 64)}`;
const byName = (contents: ReturnType<typeof parseSbom>, name: string) => contents.packages.find((pkg) => pkg.name === name);

describe('the CycloneDX reader', () => {
  it('reads syft 1.6: the container image by its name and manifest digest, its OS, its packages with purls, and counts an unnamed one', () => {
    const sbom = fixture('syft-payments-api.cdx.json');
    expect(sbom).toMatchObject({ format: 'CycloneDX 1.6', tool: 'syft 1.0.1', created: '2024-03-18T09:41:27.000Z', unnamed: 1, notes: [] });
    expect(sbom.subject).toEqual({ kind: 'image', reference: 'registry.corp.example.com/payments/api:2.3.1', digest: 'sha256:334dfe0816e41484c2c88407ea3ee2eb3f06e2fd030e43c5ef7547cc3861e97a' });
    expect(sbom.operatingSystem).toEqual({ name: 'alpine', version: '3.19.1', prettyName: 'Alpine Linux v3.19' });
    expect(sbom.packages.map((pkg) => pkg.name)).toEqual(['busybox', 'libcrypto3', 'libssl3', 'musl', 'zlib', 'log4j-api', 'log4j-core']);
    expect(byName(sbom, 'log4j-core')).toMatchObject({
      version: '2.14.1', purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1', cpe: 'cpe:2.3:a:apache:log4j-core:2.14.1:*:*:*:*:*:*:*',
      licenses: ['Apache-2.0'], packageType: 'java-archive', installPath: '/app/lib/log4j-core-2.14.1.jar',
    });
    // An apk's publisher is its maintainer, a person: no vendor.
    expect(byName(sbom, 'musl')?.vendor).toBeNull();
  });

  it('reads cdxgen 1.5: an application names no machine, an npm scope joins the name, and the purl keeps its identity', () => {
    const sbom = fixture('web-01.corp.example.com.cdx.json');
    expect(sbom).toMatchObject({ format: 'CycloneDX 1.5', tool: 'cdxgen 10.2.2', subject: { kind: 'other', name: 'storefront', type: 'application' }, operatingSystem: null });
    expect(sbom.packages.map((pkg) => pkg.name)).toEqual(['@babel/traverse', 'express', 'body-parser', 'lodash']);
    expect(packageIdentity({ purl: byName(sbom, '@babel/traverse')!.purl })).toEqual({ ecosystem: 'npm', name: '@babel/traverse', version: '7.22.5' });
  });

  it('reads trivy: the image by its RepoTag and the digest of its pkg:oci purl, SrcName as source package, lock files left out', () => {
    const sbom = parse({
      bomFormat: 'CycloneDX', specVersion: '1.5', serialNumber: 'urn:uuid:2be5773d-7cd3-4b4b-90a5-e165474ddace', version: 1,
      metadata: {
        timestamp: '2024-02-22T15:11:40.270597Z', tools: { components: [{ type: 'application', group: 'aquasecurity', name: 'trivy', version: '0.49.1' }] },
        component: {
          'bom-ref': 'pkg:oci/app@sha256%3Aaaaa', type: 'container', name: 'registry.corp.example.com/shop/app:7.2', purl: `pkg:oci/app@${encodeURIComponent(digest('b'))}?arch=amd64&repository_url=registry.corp.example.com%2Fshop%2Fapp`,
          properties: [{ name: 'aquasecurity:trivy:ImageID', value: digest('c') }, { name: 'aquasecurity:trivy:RepoDigest', value: `registry.corp.example.com/shop/app@${digest('b')}` }, { name: 'aquasecurity:trivy:RepoTag', value: 'registry.corp.example.com/shop/app:7.2' }],
        },
      },
      components: [
        { 'bom-ref': 'pkg:deb/ubuntu/libssl3@3.0.2-0ubuntu1.10?arch=amd64&distro=ubuntu-22.04', type: 'library', supplier: { name: 'Ubuntu Developers <ubuntu-devel-discuss@lists.ubuntu.com>' }, name: 'libssl3', version: '3.0.2-0ubuntu1.10', licenses: [{ license: { name: 'OpenSSL' } }], purl: 'pkg:deb/ubuntu/libssl3@3.0.2-0ubuntu1.10?arch=amd64&distro=ubuntu-22.04', properties: [{ name: 'aquasecurity:trivy:PkgType', value: 'ubuntu' }, { name: 'aquasecurity:trivy:SrcName', value: 'openssl' }, { name: 'aquasecurity:trivy:SrcVersion', value: '3.0.2' }] },
        { 'bom-ref': '3ff14136-e09f-4df9-80ea-000000000001', type: 'operating-system', name: 'ubuntu', version: '22.04', properties: [{ name: 'aquasecurity:trivy:Class', value: 'os-pkgs' }] },
        { 'bom-ref': '3ff14136-e09f-4df9-80ea-000000000002', type: 'application', name: 'app/pom.xml', properties: [{ name: 'aquasecurity:trivy:Class', value: 'lang-pkgs' }, { name: 'aquasecurity:trivy:Type', value: 'pom' }] },
        { 'bom-ref': 'pkg:maven/org.springframework/spring-core@5.3.17', type: 'library', group: 'org.springframework', name: 'spring-core', version: '5.3.17', purl: 'pkg:maven/org.springframework/spring-core@5.3.17', properties: [{ name: 'aquasecurity:trivy:FilePath', value: 'app/lib/spring-core-5.3.17.jar' }, { name: 'aquasecurity:trivy:PkgType', value: 'jar' }] },
      ],
    });
    expect(sbom.subject).toEqual({ kind: 'image', reference: 'registry.corp.example.com/shop/app:7.2', digest: digest('b') });
    expect(sbom.operatingSystem).toEqual({ name: 'ubuntu', version: '22.04', prettyName: null });
    expect(sbom.packages.map((pkg) => [pkg.name, pkg.sourcePackage, pkg.packageType, pkg.vendor, pkg.installPath])).toEqual([
      ['libssl3', 'openssl', 'ubuntu', null, null], ['spring-core', null, 'jar', null, 'app/lib/spring-core-5.3.17.jar'],
    ]);
    expect(byName(sbom, 'libssl3')?.licenses).toEqual(['OpenSSL']);
  });

  it('reads 1.4 (a tools list), a device as the subject, license expressions and nested components', () => {
    const sbom = parse({
      bomFormat: 'CycloneDX', specVersion: '1.4', version: 1,
      metadata: { tools: [{ vendor: 'aquasecurity', name: 'trivy', version: '0.38.1' }], component: { type: 'device', name: 'build-07.corp.example.com' } },
      components: [{ type: 'application', name: 'jenkins', version: '2.440.1', publisher: 'Jenkins project', licenses: [{ expression: 'MIT' }], purl: 'pkg:maven/org.jenkins-ci.main/jenkins-war@2.440.1', components: [{ type: 'library', group: 'org.apache.commons', name: 'commons-text', version: '1.9', purl: 'pkg:maven/org.apache.commons/commons-text@1.9' }] }],
    });
    expect(sbom).toMatchObject({ tool: 'trivy 0.38.1', subject: { kind: 'host', hostname: 'build-07.corp.example.com' } });
    expect(sbom.packages.map((pkg) => [pkg.name, pkg.vendor, pkg.licenses])).toEqual([['jenkins', 'Jenkins project', ['MIT']], ['commons-text', null, []]]);
  });

  it('gives cdxgen\'s image tag back to its name, and notes a spec version newer than it follows', () => {
    const sbom = parse({ bomFormat: 'CycloneDX', specVersion: '1.7', metadata: { component: { type: 'container', name: 'nginx', version: '1.25.3' } }, components: [] });
    expect(sbom.subject).toEqual({ kind: 'image', reference: 'nginx:1.25.3', digest: null });
    expect(sbom.notes).toEqual(['CycloneDX 1.7 is newer than the versions this reader follows (1.2 to 1.6); it was read as 1.6.']);
  });
});

describe('the SPDX reader', () => {
  it('reads trivy 2.3: the CONTAINER package described, its annotations, the OS package, source packages and the epoch in the purl', () => {
    const sbom = fixture('trivy-nginx.spdx.json');
    expect(sbom).toMatchObject({ format: 'SPDX 2.3', tool: 'trivy-0.50.1', created: '2024-03-18T10:02:11.000Z', unnamed: 0 });
    expect(sbom.subject).toEqual({ kind: 'image', reference: 'nginx:1.25.3', digest: 'sha256:0e11c0e6053c8999215d30ec730be2a06a8abd116517cd6a197195e925145adc' });
    expect(sbom.operatingSystem).toEqual({ name: 'debian', version: '12.4', prettyName: null });
    expect(sbom.packages.map((pkg) => pkg.name).sort()).toEqual(['curl', 'libcurl4', 'libssl3', 'nginx', 'openssl', 'zlib1g']);
    const zlib = byName(sbom, 'zlib1g')!;
    expect(zlib).toMatchObject({ version: '1:1.2.13.dfsg-1', sourcePackage: 'zlib', licenses: ['Zlib'], vendor: null });
    // On the image's release (what the device's OS gives packages whose purl names only the distribution's release).
    expect(packageIdentity({ purl: zlib.purl, sourcePackage: zlib.sourcePackage })).toEqual({ ecosystem: 'Debian:12', name: 'zlib', version: '1:1.2.13.dfsg-1' });
    expect(packageIdentity({ purl: byName(sbom, 'libcurl4')!.purl, sourcePackage: byName(sbom, 'libcurl4')!.sourcePackage })).toEqual({ ecosystem: 'Debian:12', name: 'curl', version: '7.88.1-10+deb12u5' });
  });

  it('reads syft 2.3: the root found by its DESCRIBES relationship, the digest of its checksum, purls and CPEs as external references', () => {
    const root = 'SPDXRef-DocumentRoot-Image-registry.corp.example.com-ops-agent';
    const sbom = parse({
      spdxVersion: 'SPDX-2.3', dataLicense: 'CC0-1.0', SPDXID: 'SPDXRef-DOCUMENT', name: 'registry.corp.example.com/ops/agent:1.4',
      documentNamespace: 'https://anchore.com/syft/image/registry.corp.example.com/ops/agent-1.4-0d9b2c3e', creationInfo: { licenseListVersion: '3.23', creators: ['Organization: Anchore, Inc', 'Tool: syft-1.0.1'], created: '2024-03-18T11:20:00Z' },
      packages: [
        { name: 'openssl-libs', SPDXID: 'SPDXRef-Package-rpm-openssl-libs-6b0a5e1c', versionInfo: '1:3.0.7-25.el9_3', supplier: 'Organization: Red Hat, Inc.', downloadLocation: 'NOASSERTION', filesAnalyzed: false, sourceInfo: 'acquired package info from RPM DB: /var/lib/rpm/rpmdb.sqlite', licenseConcluded: 'NOASSERTION', licenseDeclared: 'OpenSSL AND Apache-2.0', copyrightText: 'NOASSERTION', externalRefs: [{ referenceCategory: 'SECURITY', referenceType: 'cpe23Type', referenceLocator: 'cpe:2.3:a:redhat:openssl-libs:1\\:3.0.7-25.el9_3:*:*:*:*:*:*:*' }, { referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:rpm/redhat/openssl-libs@3.0.7-25.el9_3?arch=x86_64&epoch=1&upstream=openssl-3.0.7-25.el9_3.src.rpm&distro=rhel-9.3' }] },
        { name: 'registry.corp.example.com/ops/agent:1.4', SPDXID: root, versionInfo: digest('d'), supplier: 'NOASSERTION', downloadLocation: 'NOASSERTION', filesAnalyzed: false, checksums: [{ algorithm: 'SHA256', checksumValue: 'e'.repeat(64) }], externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: `pkg:oci/agent@sha256%3A${'e'.repeat(64)}?arch=amd64&tag=1.4` }], primaryPackagePurpose: 'CONTAINER' },
      ],
      relationships: [{ spdxElementId: root, relatedSpdxElement: 'SPDXRef-Package-rpm-openssl-libs-6b0a5e1c', relationshipType: 'CONTAINS' }, { spdxElementId: 'SPDXRef-DOCUMENT', relatedSpdxElement: root, relationshipType: 'DESCRIBES' }],
    });
    expect(sbom).toMatchObject({ format: 'SPDX 2.3', tool: 'syft-1.0.1', subject: { kind: 'image', reference: 'registry.corp.example.com/ops/agent:1.4', digest: `sha256:${'e'.repeat(64)}` } });
    expect(sbom.packages).toEqual([expect.objectContaining({ name: 'openssl-libs', vendor: 'Red Hat, Inc.', licenses: ['OpenSSL AND Apache-2.0'], cpe: expect.stringMatching(/^cpe:2\.3:a:redhat:openssl-libs/), sourcePackage: null })]);
    expect(packageIdentity({ purl: sbom.packages[0].purl })).toEqual({ ecosystem: 'Red Hat:enterprise_linux:9', name: 'openssl-libs', sourceName: 'openssl', version: '1:3.0.7-25.el9_3' });
  });

  it('reads trivy 2.2 (attribution texts, no package purposes) and syft\'s directory root as naming no machine', () => {
    const old = parse({
      SPDXID: 'SPDXRef-DOCUMENT', creationInfo: { created: '2022-09-13T13:27:55.874784Z', creators: ['Tool: trivy-dev', 'Organization: aquasecurity'] }, dataLicense: 'CC0-1.0', name: 'centos-7.tar.gz', spdxVersion: 'SPDX-2.2',
      packages: [
        { SPDXID: 'SPDXRef-ContainerImage-dd5cad897c6263', attributionTexts: ['SchemaVersion: 2', `ImageID: ${digest('f')}`, 'RepoTag: ghcr.io/aquasecurity/trivy-test-images:centos-7'], filesAnalyzed: false, name: 'centos-7.tar.gz' },
        { SPDXID: 'SPDXRef-OperatingSystem-2e91c856c499a371', filesAnalyzed: false, name: 'centos', versionInfo: '7.6.1810' },
        { SPDXID: 'SPDXRef-Package-5a18334f22149877', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceLocator: 'pkg:rpm/centos/bash@4.2.46-31.el7?arch=x86_64&distro=centos-7.6.1810', referenceType: 'purl' }], filesAnalyzed: false, licenseConcluded: 'GPLv3+', licenseDeclared: 'GPLv3+', name: 'bash', sourceInfo: 'built package from: bash 4.2.46-31.el7', versionInfo: '4.2.46' },
      ],
      relationships: [{ relatedSpdxElement: 'SPDXRef-ContainerImage-dd5cad897c6263', relationshipType: 'DESCRIBES', spdxElementId: 'SPDXRef-DOCUMENT' }],
    });
    expect(old).toMatchObject({ format: 'SPDX 2.2', subject: { kind: 'image', reference: 'ghcr.io/aquasecurity/trivy-test-images:centos-7', digest: digest('f') }, operatingSystem: { name: 'centos', version: '7.6.1810' } });
    expect(old.packages.map((pkg) => [pkg.name, pkg.sourcePackage, pkg.licenses])).toEqual([['bash', 'bash', ['GPLv3+']]]);
    const directory = parse({ spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT', name: '/', documentDescribes: ['SPDXRef-DocumentRoot-Directory-'], packages: [{ SPDXID: 'SPDXRef-DocumentRoot-Directory-', name: '/' }, { SPDXID: 'SPDXRef-Package-x', name: '' }] });
    expect(directory).toMatchObject({ subject: { kind: 'other', name: '/' }, packages: [], unnamed: 1 });
  });
});
