import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { recordKeyFor } from '../../../src/server/discovery/recordKeys.js';
import { parseSbom, readBounded, sbomMaximumBytes } from '../../../src/server/adapters/sbom/sbomDocument.js';
import { fileStem, sbomRecords } from '../../../src/server/adapters/sbom/sbomRecords.js';

// Hostile and unusual files: every one fails with a message naming the file and what it is instead (never a crash
// and never a silent empty read), and the records of a read SBOM land on the device they describe.

const fixture = (name: string) => readFileSync(new URL(`../../../schemas/adapters/sbom/fixtures/${name}`, import.meta.url));
const failure = (content: string | Buffer, label = 'upload.json') => {
  try {
    parseSbom(Buffer.isBuffer(content) ? content : Buffer.from(content), label);
  } catch (error) {
    return (error as Error).message;
  }
  return 'read';
};

describe('reading an SBOM file', () => {
  it('refuses what is not a JSON SBOM, saying what it is and how to get one', () => {
    expect(failure('')).toBe('upload.json is empty.');
    expect(failure('{"bomFormat": "CycloneDX", "specVersion": ')).toMatch(/^upload\.json is not JSON: /);
    expect(failure('<?xml version="1.0"?><bom xmlns="http://cyclonedx.org/schema/bom/1.5"/>')).toBe('upload.json is XML (CycloneDX XML or SPDX RDF), which is not read: export the SBOM as JSON.');
    expect(failure('SPDXVersion: SPDX-2.3\nDataLicense: CC0-1.0\n')).toBe('upload.json is SPDX tag-value text, which is not read: export the SBOM as SPDX JSON.');
    expect(failure('[{"name": "curl"}]')).toBe('upload.json is a JSON list, not an SBOM document (an object).');
    expect(failure('"CycloneDX"')).toBe('upload.json is a JSON string, not an SBOM document (an object).');
    expect(failure(fixture('trivy-report.json'), 'trivy-report.json')).toBe('trivy-report.json is a trivy JSON report, not an SBOM: run trivy with --format cyclonedx or --format spdx-json.');
    expect(failure('{"artifacts": [], "source": {}, "distro": {}, "schema": {"version": "16.0.0"}}')).toMatch(/is syft's own JSON format, not an SBOM: run syft with -o cyclonedx-json/);
    expect(failure('{"@context": "https://spdx.org/rdf/3.0.1/spdx-context.jsonld", "@graph": []}')).toMatch(/is an SPDX 3 document \(JSON-LD\), which is not read yet/);
    expect(failure('{"hostname": "web-01"}')).toBe('upload.json is JSON but not an SBOM: a CycloneDX BOM has "bomFormat": "CycloneDX" and an SPDX document has "spdxVersion".');
  });

  it('refuses a CycloneDX or SPDX document whose version or lists it cannot read, naming the file', () => {
    expect(failure('{"bomFormat": "CycloneDX"}')).toBe('upload.json: The CycloneDX document has no spec version this reader knows (specVersion is null).');
    expect(failure('{"bomFormat": "CycloneDX", "specVersion": "1.5", "components": {"name": "x"}}')).toBe('upload.json: The CycloneDX document\'s components is not a list.');
    expect(failure('{"spdxVersion": "SPDX-3.0"}')).toMatch(/SPDX-3\.0 documents \(JSON-LD\) are not read yet/);
    expect(failure('{"spdxVersion": "2.3"}')).toMatch(/no version this reader knows \(spdxVersion is "2\.3"\)/);
    expect(failure('{"spdxVersion": "SPDX-2.3", "packages": "curl"}')).toBe('upload.json: The SPDX document\'s packages is not a list.');
  });

  it('skips components without a name (counted), and ignores junk where a component or property should be', () => {
    const read = parseSbom(Buffer.from(JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [null, 7, 'x', { type: 'library', version: '1' }, { type: 'library', name: '   ' }, { type: 'library', name: 'ok', version: 3, properties: 'x', licenses: [null, { license: 'MIT' }] }] })), 'junk.json');
    expect(read.unnamed).toBe(2);
    expect(read.packages).toEqual([expect.objectContaining({ name: 'ok', version: null, licenses: [], purl: null })]);
  });

  it('reads UTF-16 with its BOM (Windows PowerShell\'s redirection) and a UTF-8 BOM', () => {
    const text = fixture('trivy-nginx.spdx.json').toString('utf8');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(parseSbom(utf16, 'sbom.json').packages).toHaveLength(6);
    expect(parseSbom(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'sbom.json').packages).toHaveLength(6);
  });

  it('reads a gzipped SBOM, and refuses one that unpacks beyond the bound instead of holding it', () => {
    expect(parseSbom(gzipSync(fixture('syft-payments-api.cdx.json')), 'sbom.cdx.json.gz').packages).toHaveLength(7);
    const bomb = gzipSync(Buffer.alloc(sbomMaximumBytes + 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(failure(bomb, 'bomb.json.gz')).toBe('bomb.json.gz unpacks to more than 64 MB, the most one SBOM may be.');
    expect(failure(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]), 'cut.json.gz')).toMatch(/^cut\.json\.gz is a damaged gzip file/);
  });

  it('bounds how deep nested components are followed, without exhausting the stack', () => {
    // Written as text: building it with JSON.stringify would itself recurse 5,000 deep.
    const depth = 5000;
    const opening = Array.from({ length: depth }, (_, level) => `{"type": "library", "name": "level-${level}", "version": "1", "components": [`).join('');
    const text = `{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [${opening}{"type": "library", "name": "leaf"}${']}'.repeat(depth)}]}`;
    const read = parseSbom(Buffer.from(text), 'deep.json');
    expect(read.packages.map((pkg) => pkg.name).slice(0, 2)).toEqual(['level-0', 'level-1']);
    expect(read.packages).toHaveLength(33);
  });

  it('stops reading a stream that passes the bound', async () => {
    const chunks = Array.from({ length: 5 }, () => Buffer.alloc(1000, 0x20));
    await expect(readBounded(Readable.from(chunks), 'big.json', 4500)).rejects.toThrow('big.json is larger than 0 MB, the most one SBOM may be.');
    expect((await readBounded(Readable.from(chunks), 'fits.json', 5000)).length).toBe(5000);
  });
});

describe('the records of an SBOM', () => {
  it('put every package on the image it describes: software names the key the device record gets', () => {
    const sbom = parseSbom(fixture('syft-payments-api.cdx.json'), 'syft-payments-api.cdx.json');
    const { records, notes } = sbomRecords(sbom, { fileName: 'syft-payments-api.cdx.json' }, 'syft-payments-api.cdx.json');
    const [device, ...software] = records;
    expect(device).toMatchObject({ entity: 'device', fields: { Hostname: 'registry.corp.example.com/payments/api:2.3.1', AgentId: sbom.subject.kind === 'image' ? sbom.subject.digest : null, Category: 'Container image', 'OS.FullOsString': 'Alpine Linux v3.19' } });
    expect(device.raw).toMatchObject({ format: 'CycloneDX 1.6', tool: 'syft 1.0.1', document: { bomFormat: 'CycloneDX', metadata: expect.any(Object) } });
    expect(software).toHaveLength(7);
    for (const record of software) expect(recordKeyFor(7, device, 0)).toBe(`7:device:${record.fields.DeviceId as string}`);
    expect(notes).toEqual(['syft-payments-api.cdx.json: 1 component without a name was skipped.']);
  });

  it('put the software of an SBOM naming no machine on the connection\'s host name, or on one named after the file, and say so', () => {
    const sbom = parseSbom(fixture('web-01.corp.example.com.cdx.json'), 'x');
    const named = sbomRecords(sbom, { fileName: 'web-01.corp.example.com.cdx.json', hostName: 'app-07' }, 'x');
    expect(named.records[0].fields).toEqual({ Hostname: 'app-07', LastSeen: '2024-03-19T07:15:02.118Z' });
    expect(named.records[1].fields.DeviceId).toBe('app-07');
    expect(named.notes).toEqual([]);
    const unnamed = sbomRecords(sbom, { fileName: 'web-01.corp.example.com.cdx.json' }, 'web-01.corp.example.com.cdx.json');
    expect(unnamed.records[0].fields.Hostname).toBe('web-01.corp.example.com');
    expect(unnamed.notes[0]).toMatch(/describes application "storefront", not a machine or an image: its software was put on the device "web-01\.corp\.example\.com"/);
    expect(['app.cdx.json', 'app.spdx.json.gz', 'C:\\sboms\\build-07.json', 'host.bom.json'].map(fileStem)).toEqual(['app', 'app', 'build-07', 'host']);
  });

  it('give the device its OS from a distribution purl when the SBOM has no OS component (syft SPDX)', () => {
    const sbom = parseSbom(Buffer.from(JSON.stringify({
      spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT', name: 'debian:12', documentDescribes: ['SPDXRef-DocumentRoot-Image-debian'],
      packages: [{ SPDXID: 'SPDXRef-DocumentRoot-Image-debian', name: 'debian:12', primaryPackagePurpose: 'CONTAINER' }, { SPDXID: 'SPDXRef-Package-deb-tar', name: 'tar', versionInfo: '1.34+dfsg-1.2', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:deb/debian/tar@1.34%2Bdfsg-1.2?arch=amd64&distro=debian-12' }] }],
    })), 'x');
    const { records } = sbomRecords(sbom, { fileName: 'debian.spdx.json' }, 'x');
    expect(records[0].fields).toEqual({ Hostname: 'debian:12', Category: 'Container image', 'OS.FullOsString': 'debian 12' });
    expect(records[1].fields.DeviceId).toBe('debian:12');
  });
});
