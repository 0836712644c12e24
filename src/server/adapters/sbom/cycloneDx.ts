import { parsePurl } from '../../../core/software/packages.js';
import { imageDigest, isObject, isoDate, listOf, SbomFormatError, text, vendorOf, withoutDigest, type JsonObject, type SbomContents, type SbomOperatingSystem, type SbomPackage, type SbomSubject } from './sbomContents.js';

// CycloneDX JSON (https://cyclonedx.org/docs/1.6/json/), as syft, trivy and cdxgen write it: `metadata.component`
// is what the BOM describes (trivy and syft: `type: container` for an image), `components` the packages (nested
// `components` included), one `operating-system` component the image's distribution. Tools put what the spec has no
// field for in `properties` (`aquasecurity:trivy:SrcName`, `syft:location:0:path`).

/** The versions whose JSON schema this reader follows; an earlier one has the same fields, a later one is read as 1.6. */
const knownVersions = ['1.2', '1.3', '1.4', '1.5', '1.6'];

// Component types that are not installed software: the image itself, its OS, files and data.
const notSoftware = new Set(['container', 'operating-system', 'file', 'data', 'device', 'device-driver', 'firmware', 'platform', 'machine-learning-model', 'cryptographic-asset']);

// Nested components deeper than this are a malformed (or hostile) document, not a real package tree.
const deepestNesting = 32;

type Properties = Map<string, string[]>;

function propertiesOf(component: JsonObject): Properties {
  const properties: Properties = new Map();
  for (const property of listOf(component.properties)) {
    if (!isObject(property)) continue;
    const [name, value] = [text(property.name), text(property.value)];
    if (name && value) properties.set(name, [...(properties.get(name) ?? []), value]);
  }
  return properties;
}

const first = (properties: Properties, ...names: string[]): string | null => names.map((name) => properties.get(name)?.[0]).find(Boolean) ?? null;

/** License ids, names and expressions: `[{license: {id: "MIT"}}, {expression: "Apache-2.0 OR MIT"}]` → `["MIT", "Apache-2.0 OR MIT"]`. */
function licensesOf(component: JsonObject): string[] {
  const found: string[] = [];
  for (const entry of listOf(component.licenses)) {
    if (!isObject(entry)) continue;
    const license = isObject(entry.license) ? text(entry.license.id) ?? text(entry.license.name) : null;
    const value = license ?? text(entry.expression);
    if (value && !found.includes(value)) found.push(value);
  }
  return found;
}

/** The tool that wrote the BOM: 1.4's `tools` list or 1.5's `tools.components`. */
function toolOf(metadata: JsonObject): string | null {
  const tools = Array.isArray(metadata.tools) ? metadata.tools : isObject(metadata.tools) ? listOf(metadata.tools.components) : [];
  const tool = tools.find(isObject);
  if (!tool) return null;
  return [text(tool.name), text(tool.version)].filter(Boolean).join(' ') || null;
}

/**
 * What `metadata.component` describes. An image: trivy names it `alpine:3.19` with the digest in its `pkg:oci`
 * purl and `RepoTag`/`RepoDigest` properties; syft names it as it was asked for, with the manifest digest as its
 * version; cdxgen may give the tag as the version.
 */
function subjectOf(component: unknown): SbomSubject {
  if (!isObject(component)) return { kind: 'other', name: null, type: null };
  const type = text(component.type);
  const name = text(component.name);
  if (type === 'device' && name) return { kind: 'host', hostname: name };
  if (type !== 'container') return { kind: 'other', name, type };
  const properties = propertiesOf(component);
  const purl = text(component.purl) ? parsePurl(text(component.purl)!) : null;
  const version = text(component.version);
  const digest = imageDigest(purl?.version) ?? imageDigest(version) ?? imageDigest(first(properties, 'aquasecurity:trivy:RepoDigest')) ?? imageDigest(first(properties, 'aquasecurity:trivy:ImageID'));
  let reference = first(properties, 'aquasecurity:trivy:RepoTag') ?? (name ? withoutDigest(name) : null);
  // cdxgen names the repository and gives the tag as the version.
  if (reference && version && !imageDigest(version) && !/:[^/]*$/.test(reference)) reference = `${reference}:${version}`;
  return { kind: 'image', reference, digest };
}

function operatingSystemOf(component: JsonObject): SbomOperatingSystem | null {
  const name = text(component.name);
  if (!name) return null;
  return { name, version: text(component.version), prettyName: first(propertiesOf(component), 'syft:distro:prettyName') };
}

// Ecosystems whose package name includes its namespace (`@babel/traverse`, `github.com/gin-gonic/gin`,
// `symfony/http-kernel`); Maven and NuGet name a package by its artifact alone (`log4j-core`), as inventories do.
const namespacedTypes = new Set(['npm', 'golang', 'composer', 'swift']);

/** The package's name as its ecosystem writes it: CycloneDX puts an npm scope in `group` and the rest in `name`. */
function fullName(component: JsonObject, name: string): string {
  const group = text(component.group);
  if (!group) return name;
  const type = parsePurl(text(component.purl) ?? '')?.type;
  return (type ? namespacedTypes.has(type) : group.startsWith('@')) ? `${group}/${name}` : name;
}

function packageOf(component: JsonObject, short: string): SbomPackage {
  const properties = propertiesOf(component);
  const name = fullName(component, short);
  const organisation = (value: unknown) => (isObject(value) ? vendorOf(value.name) : null);
  return {
    name,
    version: text(component.version),
    purl: text(component.purl),
    cpe: text(component.cpe),
    vendor: vendorOf(component.publisher) ?? organisation(component.supplier) ?? organisation(component.manufacturer),
    licenses: licensesOf(component),
    sourcePackage: first(properties, 'aquasecurity:trivy:SrcName'),
    packageType: first(properties, 'syft:package:type', 'aquasecurity:trivy:PkgType'),
    installPath: first(properties, 'syft:location:0:path', 'aquasecurity:trivy:FilePath'),
    raw: component,
  };
}

/**
 * Reads a CycloneDX JSON BOM. Before: `{bomFormat: "CycloneDX", specVersion: "1.6", metadata: {component: {type:
 * "container", name: "alpine:3.19", ...}}, components: [...]}`; after: the image, its OS and its packages.
 */
export function readCycloneDx(document: JsonObject): SbomContents {
  const specVersion = text(document.specVersion);
  if (!specVersion || !/^1\.\d+$/.test(specVersion)) throw new SbomFormatError(`The CycloneDX document has no spec version this reader knows (specVersion is ${JSON.stringify(document.specVersion ?? null)}).`);
  const notes: string[] = [];
  if (!knownVersions.includes(specVersion)) notes.push(`CycloneDX ${specVersion} is newer than the versions this reader follows (1.2 to 1.6); it was read as 1.6.`);
  if (document.components !== undefined && !Array.isArray(document.components)) throw new SbomFormatError('The CycloneDX document\'s components is not a list.');
  const metadata = isObject(document.metadata) ? document.metadata : {};
  const contents: SbomContents = {
    format: `CycloneDX ${specVersion}`, tool: toolOf(metadata), created: isoDate(metadata.timestamp), subject: subjectOf(metadata.component),
    operatingSystem: null, packages: [], unnamed: 0, notes,
    header: Object.fromEntries(Object.entries(document).filter(([key]) => !['components', 'dependencies', 'vulnerabilities', 'services', 'compositions', 'annotations', 'formulation'].includes(key))),
  };
  // A stack, not recursion: nesting is bounded, and a deep document cannot exhaust the call stack.
  const pending: { component: unknown; depth: number }[] = listOf(document.components).map((component) => ({ component, depth: 0 })).reverse();
  while (pending.length) {
    const { component, depth } = pending.pop()!;
    if (!isObject(component)) continue;
    if (depth < deepestNesting) for (const child of listOf(component.components).reverse()) pending.push({ component: child, depth: depth + 1 });
    const type = text(component.type);
    if (type === 'operating-system') {
      contents.operatingSystem ??= operatingSystemOf(component);
      continue;
    }
    if (type && notSoftware.has(type)) continue;
    const name = text(component.name);
    if (!name) {
      contents.unnamed += 1;
      continue;
    }
    // trivy lists each lock file or language (`app/package-lock.json`, `Java`) as an application holding its
    // packages: it has neither a version nor a purl, and is not itself installed software.
    if (type === 'application' && !text(component.version) && !text(component.purl)) continue;
    contents.packages.push(packageOf(component, name));
  }
  return contents;
}
