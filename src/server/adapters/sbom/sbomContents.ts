// What Cartograph reads from one SBOM, whatever its format: the machine or image it describes, its operating
// system, and the packages installed on it. The CycloneDX and SPDX readers fill it; sbomRecords.ts turns it into
// a device record and one installed-software record per package.

/**
 * What the SBOM is about. A container image is named by its reference (`nginx:1.25.3`) and its digest; a device by
 * its host name (a CycloneDX `device` component); anything else (a folder, an application) names no machine.
 */
export type SbomSubject =
  | { kind: 'image'; reference: string | null; digest: string | null }
  | { kind: 'host'; hostname: string }
  | { kind: 'other'; name: string | null; type: string | null };

export type SbomOperatingSystem = { name: string; version: string | null; prettyName: string | null };

/** One installed package as the SBOM lists it; `raw` is the component or package untouched. */
export type SbomPackage = {
  name: string;
  version: string | null;
  purl: string | null;
  cpe: string | null;
  vendor: string | null;
  licenses: string[];
  /** The distribution's source package (Debian's advisories name `openssl`, not `libssl3`). */
  sourcePackage: string | null;
  /** The tool's own package type (`deb`, `java-archive`, `jar`), for packages that carry no purl. */
  packageType: string | null;
  installPath: string | null;
  raw: unknown;
};

export type SbomContents = {
  /** `CycloneDX 1.6`, `SPDX 2.3`. */
  format: string;
  /** The tool that wrote it (`syft v1.4.1`, `trivy-0.50.1`), when it says. */
  tool: string | null;
  /** When it was written (ISO 8601), when it says. */
  created: string | null;
  subject: SbomSubject;
  operatingSystem: SbomOperatingSystem | null;
  packages: SbomPackage[];
  /** Components or packages skipped because they have no name. */
  unnamed: number;
  /** Things worth telling the administrator that did not stop the reading (a newer spec version). */
  notes: string[];
  /** The document without its package lists: what the device record keeps as its raw record. */
  header: Record<string, unknown>;
};

/** A document that is not a CycloneDX or SPDX JSON SBOM Cartograph reads: the message says what it is instead. */
export class SbomFormatError extends Error {}

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A trimmed non-empty string, or null. */
export function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed || null;
}

/**
 * A vendor from a publisher or supplier, or null: syft and trivy put an apk or deb package's maintainer there
 * ("Debian OpenSSL Team <pkg-openssl-devel@…>"), a person or team with an address, which names no vendor and would
 * split one product into as many software entries as it has maintainers. An RPM's vendor ("Red Hat, Inc.") is kept.
 */
export function vendorOf(value: unknown): string | null {
  const found = text(value);
  return found && !/<[^>]*@[^>]*>/.test(found) ? found : null;
}

/** The array at a key, or an empty one when the key is missing or holds something else. */
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const digestPattern = /^sha256:[0-9a-f]{64}$/i;

/** An image digest (`sha256:` and 64 hex digits), from text that may carry it after an `@` (`alpine@sha256:…`). */
export function imageDigest(value: unknown): string | null {
  const found = text(value);
  if (!found) return null;
  const candidate = found.includes('@') ? found.slice(found.lastIndexOf('@') + 1) : found;
  return digestPattern.test(candidate) ? candidate.toLowerCase() : null;
}

/** An image reference without its digest: `alpine:3.19@sha256:…` → `alpine:3.19`. */
export const withoutDigest = (reference: string): string => reference.replace(/@sha256:[0-9a-f]{64}$/i, '');

/** The valid ISO date of a timestamp, or null (a tool's "redacted" or a malformed date is not a time). */
export function isoDate(value: unknown): string | null {
  const found = text(value);
  if (!found || !/^\d{4}-\d{2}-\d{2}/.test(found)) return null;
  const time = Date.parse(found);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
