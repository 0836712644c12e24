import { parsePurl } from '../../../core/software/packages.js';
import { imageDigest, isObject, isoDate, listOf, SbomFormatError, text, vendorOf, withoutDigest, type JsonObject, type SbomContents, type SbomOperatingSystem, type SbomPackage, type SbomSubject } from './sbomContents.js';

// SPDX 2.2 and 2.3 JSON (https://spdx.github.io/spdx-spec/v2.3/), as syft and trivy write it: the document
// DESCRIBES one root package (`documentDescribes`, or a relationship from SPDXRef-DOCUMENT); for an image it is the
// CONTAINER package (syft: `SPDXRef-DocumentRoot-Image-…`, trivy: `SPDXRef-ContainerImage-…`), trivy adds an
// OPERATING-SYSTEM package, and every other package is installed on it. Purls and CPEs are external references.

// Packages that are not installed software: the image, its OS, and files or sources listed as packages.
const notSoftware = new Set(['CONTAINER', 'OPERATING-SYSTEM', 'OPERATING_SYSTEM', 'FILE', 'SOURCE', 'ARCHIVE', 'DEVICE', 'FIRMWARE']);

const noAssertion = (value: string | null) => (value && !['NOASSERTION', 'NONE'].includes(value.toUpperCase()) ? value : null);

/** The external reference of a type: `purl`, `cpe23Type`. */
function externalReference(pkg: JsonObject, ...types: string[]): string | null {
  for (const reference of listOf(pkg.externalRefs)) {
    if (isObject(reference) && types.includes(String(reference.referenceType))) {
      const locator = text(reference.referenceLocator);
      if (locator) return locator;
    }
  }
  return null;
}

/** `Organization: Red Hat, Inc.` → `Red Hat, Inc.`; a person, a maintainer or NOASSERTION says nothing of a vendor. */
const organisation = (value: unknown) => vendorOf(/^Organization:\s*(.+)$/.exec(text(value) ?? '')?.[1]);

/** trivy's facts on a package, `Key: value` comments of annotations (2.3) or attribution texts (2.2): `RepoTag: alpine:3.19`. */
function facts(pkg: JsonObject): Map<string, string> {
  const found = new Map<string, string>();
  const texts = [...listOf(pkg.annotations).map((annotation) => (isObject(annotation) ? annotation.comment : null)), ...listOf(pkg.attributionTexts)];
  for (const entry of texts) {
    const match = /^([A-Za-z]+):\s*(.+)$/.exec(text(entry) ?? '');
    if (match && !found.has(match[1])) found.set(match[1], match[2].trim());
  }
  return found;
}

/** The SPDXID of the package the document describes, or null when it names none. */
function rootId(document: JsonObject, packages: JsonObject[]): string | null {
  const described = listOf(document.documentDescribes).map(text).find(Boolean);
  if (described) return described;
  const documentId = text(document.SPDXID) ?? 'SPDXRef-DOCUMENT';
  for (const relationship of listOf(document.relationships)) {
    if (!isObject(relationship)) continue;
    if (relationship.relationshipType === 'DESCRIBES' && relationship.spdxElementId === documentId) return text(relationship.relatedSpdxElement);
    if (relationship.relationshipType === 'DESCRIBED_BY' && relationship.relatedSpdxElement === documentId) return text(relationship.spdxElementId);
  }
  return text(packages.find((pkg) => pkg.primaryPackagePurpose === 'CONTAINER')?.SPDXID);
}

const isImage = (pkg: JsonObject) => {
  const type = parsePurl(externalReference(pkg, 'purl') ?? '')?.type;
  return pkg.primaryPackagePurpose === 'CONTAINER' || /^SPDXRef-(ContainerImage|DocumentRoot-Image)-/.test(String(pkg.SPDXID)) || type === 'oci' || type === 'docker';
};

function subjectOf(root: JsonObject | undefined, documentName: string | null): SbomSubject {
  if (!root) return { kind: 'other', name: documentName, type: null };
  if (!isImage(root)) return { kind: 'other', name: text(root.name) ?? documentName, type: text(root.primaryPackagePurpose) };
  const known = facts(root);
  const checksum = listOf(root.checksums).find((entry) => isObject(entry) && entry.algorithm === 'SHA256') as JsonObject | undefined;
  const digest = imageDigest(parsePurl(externalReference(root, 'purl') ?? '')?.version) ?? imageDigest(text(root.versionInfo)) ?? (checksum ? imageDigest(`sha256:${text(checksum.checksumValue) ?? ''}`) : null)
    ?? imageDigest(known.get('RepoDigest')) ?? imageDigest(known.get('ImageID'));
  const name = known.get('RepoTag') ?? text(root.name) ?? documentName;
  return { kind: 'image', reference: name ? withoutDigest(name) : null, digest };
}

const isOperatingSystem = (pkg: JsonObject) => pkg.primaryPackagePurpose === 'OPERATING-SYSTEM' || String(pkg.SPDXID).startsWith('SPDXRef-OperatingSystem-');

function packageOf(pkg: JsonObject, name: string): SbomPackage {
  const concluded = noAssertion(text(pkg.licenseConcluded));
  const declared = noAssertion(text(pkg.licenseDeclared));
  return {
    name,
    version: noAssertion(text(pkg.versionInfo)),
    purl: externalReference(pkg, 'purl'),
    cpe: externalReference(pkg, 'cpe23Type', 'cpe22Type'),
    vendor: organisation(pkg.supplier) ?? organisation(pkg.originator),
    licenses: [...new Set([concluded, declared].filter((license): license is string => license !== null))],
    // trivy: "built package from: openssl 3.0.11-1~deb12u2"; syft writes where it found the package instead.
    sourcePackage: text(/^built package from:\s*(\S+)/.exec(text(pkg.sourceInfo) ?? '')?.[1]),
    packageType: null,
    installPath: null,
    raw: pkg,
  };
}

/**
 * Reads an SPDX 2.x JSON document. Before: `{spdxVersion: "SPDX-2.3", packages: [{SPDXID: "SPDXRef-DocumentRoot-
 * Image-…", primaryPackagePurpose: "CONTAINER", ...}, ...], relationships: [...]}`; after: the image and its packages.
 */
export function readSpdx(document: JsonObject): SbomContents {
  const version = text(document.spdxVersion) ?? '';
  if (/^SPDX-3/.test(version)) throw new SbomFormatError(`${version} documents (JSON-LD) are not read yet: export the SBOM as SPDX 2.3 JSON.`);
  const match = /^SPDX-(2\.\d)$/.exec(version);
  if (!match) throw new SbomFormatError(`The SPDX document has no version this reader knows (spdxVersion is ${JSON.stringify(document.spdxVersion ?? null)}).`);
  if (document.packages !== undefined && !Array.isArray(document.packages)) throw new SbomFormatError('The SPDX document\'s packages is not a list.');
  const packages = listOf(document.packages).filter(isObject);
  const root = rootId(document, packages);
  const rootPackage = root ? packages.find((pkg) => pkg.SPDXID === root) : undefined;
  const creationInfo = isObject(document.creationInfo) ? document.creationInfo : {};
  const tool = listOf(creationInfo.creators).map((creator) => /^Tool:\s*(.+)$/.exec(text(creator) ?? '')?.[1]).find(Boolean) ?? null;
  const contents: SbomContents = {
    format: `SPDX ${match[1]}`, tool, created: isoDate(creationInfo.created), subject: subjectOf(rootPackage, text(document.name)),
    operatingSystem: null, packages: [], unnamed: 0, notes: [],
    header: { ...Object.fromEntries(Object.entries(document).filter(([key]) => !['packages', 'files', 'relationships', 'snippets', 'hasExtractedLicensingInfos', 'annotations'].includes(key))), ...(rootPackage && { describedPackage: rootPackage }) },
  };
  for (const pkg of listOf(document.packages)) {
    if (!isObject(pkg) || pkg === rootPackage) continue;
    if (isOperatingSystem(pkg)) {
      const name = text(pkg.name);
      const os: SbomOperatingSystem | null = name ? { name, version: noAssertion(text(pkg.versionInfo)), prettyName: null } : null;
      contents.operatingSystem ??= os;
      continue;
    }
    if (notSoftware.has(String(pkg.primaryPackagePurpose))) continue;
    const name = text(pkg.name);
    if (!name) {
      contents.unnamed += 1;
      continue;
    }
    const purl = externalReference(pkg, 'purl');
    // trivy lists each lock file or language as an APPLICATION package holding others, with no version or purl.
    if (pkg.primaryPackagePurpose === 'APPLICATION' && !noAssertion(text(pkg.versionInfo)) && !purl) continue;
    contents.packages.push(packageOf(pkg, name));
  }
  return contents;
}
