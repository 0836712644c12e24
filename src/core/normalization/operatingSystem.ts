import { architectures, darwinReleases, operatingSystemRules, windowsBuilds, type OperatingSystemRule } from './rules.js';

/** An operating system as normalization reads it from a record's OS fields, with the rules that read it. */
export type OperatingSystem = {
  type: string; distribution?: string; version?: string; build?: string; edition?: string; architecture?: string;
  /** The rules that gave the values: `operating-systems#windows`, then `windows-builds#22631` when a build decided. */
  rule: string;
};

/** The first group of a pattern that matched, or undefined. */
function firstGroup(pattern: RegExp | undefined, text: string): string | undefined {
  const match = pattern?.exec(text);
  return match?.slice(1).find((group) => group !== undefined);
}

// "2012r2" → "2012 R2", "8.1" stays: a release named in the text, as the distribution writes it.
const releaseName = (release: string) => release.replace(/[\s_-]+/g, ' ').replace(/(\d)\s*r2$/i, '$1 R2').trim().toUpperCase();
// "22h2" → "22H2", "sp1" → "SP1", "15 sp5" → "15 SP5": versions as their vendors print them.
const versionName = (version: string) => version.replace(/(\d{2})h(\d)$/i, '$1H$2').replace(/^sp(\d+)$/i, 'SP$1').replace(/[\s.]*sp(\d+)$/i, ' SP$1').replace(/\s+/g, ' ').trim();

type Parsed = Omit<OperatingSystem, 'rule'> & { rules: string[] };

/** A Windows build decides the product and its release: agents that call Windows 11 "Windows 10" report build 22000 or later. */
function deriveWindows(parsed: Parsed, rule: OperatingSystemRule, text: string, serverHint: boolean): void {
  const build = parsed.build?.split('.')[0];
  const entry = build ? windowsBuilds.get(Number(build)) : undefined;
  const server = serverHint || Boolean(parsed.distribution?.startsWith('Windows Server')) || Boolean(rule.serverPattern?.test(text));
  if (entry) {
    const asServer = entry.server && (server || !entry.client);
    if (asServer) {
      // "Windows Server" names no year for the semi-annual channel; a named year (2019) is kept over it.
      if (!parsed.distribution?.startsWith('Windows Server 20') || entry.server !== 'Windows Server') parsed.distribution = entry.server;
      parsed.version = entry.serverRelease;
    } else if (entry.client) {
      parsed.distribution = entry.client;
      parsed.version = entry.clientRelease;
    }
    parsed.rules.push(`windows-builds#${entry.build}`);
  }
  if (!parsed.version) {
    const release = firstGroup(rule.versionPattern, text);
    if (release) parsed.version = versionName(release);
  }
}

const darwinRule = operatingSystemRules.find((rule) => rule.derive === 'darwin');

/** Darwin 23.4.0 is macOS 14.4; a version reads as given, and a release name alone ("macOS Sonoma") gives its version. */
function deriveMacos(parsed: Parsed, rule: OperatingSystemRule, text: string, groups: Record<string, string | undefined>): void {
  if (rule.derive === 'darwin') {
    const release = darwinReleases.find((entry) => entry.darwin === Number(groups.kernel));
    if (!release) return;
    const minor = groups.minor === undefined || release.minorOffset === undefined ? null : Math.max(0, Number(groups.minor) + release.minorOffset);
    parsed.version = minor === null ? release.macos : `${release.macos}.${minor}`;
    parsed.rules.push(`operating-systems#darwin-${release.darwin}`);
    return;
  }
  parsed.version ??= firstGroup(rule.versionPattern, text);
  // An EDR's platform "Mac" beside its kernel version "Darwin 23.4.0": the kernel gives the version.
  const kernel = parsed.version ? null : darwinRule?.pattern.exec(text);
  if (kernel) deriveMacos(parsed, darwinRule!, text, kernel.groups ?? {});
  if (!parsed.version) {
    const named = darwinReleases.find((entry) => new RegExp(`\\b${entry.name}\\b`, 'i').test(text));
    if (named) parsed.version = named.macos;
  }
}

function parse(text: string, serverHint: boolean): OperatingSystem | null {
  for (const rule of operatingSystemRules) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    const groups = match.groups ?? {};
    const release = groups.release ? releaseName(groups.release) : undefined;
    const parsed: Parsed = { type: rule.type, rules: [`operating-systems#${rule.name}`] };
    if (rule.distribution && (release || !rule.distribution.includes('{release}'))) parsed.distribution = rule.distribution.replace('{release}', release ?? '');
    if (groups.version) parsed.version = versionName(groups.version);
    parsed.build = firstGroup(rule.buildPattern, text);
    if (rule.derive === 'windowsBuild') deriveWindows(parsed, rule, text, serverHint);
    else if (rule.derive) deriveMacos(parsed, rule, text, groups);
    else if (!parsed.version) parsed.version = firstGroup(rule.versionPattern, text);
    parsed.edition = rule.editions.find((edition) => edition.pattern.test(text))?.name;
    parsed.architecture = architectures.find((architecture) => architecture.pattern.test(text))?.name;
    const { rules, ...values } = parsed;
    return Object.fromEntries(Object.entries({ ...values, rule: rules.join(' · ') }).filter(([, value]) => value !== undefined && value !== '')) as OperatingSystem;
  }
  return null;
}

// A discovery reads the same few hundred OS strings again and again: answers are kept, a bounded number of them.
const cache = new Map<string, OperatingSystem | null>();
const cacheLimit = 5000;

/**
 * The operating system that a record's OS texts name: its full string, type, version, build, joined.
 * Before: `["Microsoft Windows Server 2022 Datacenter 10.0.20348"]`; after: `{type: "Windows", distribution:
 * "Windows Server 2022", version: "21H2", build: "20348", edition: "Datacenter"}`. `serverHint` says another field
 * (a category of Server) calls the device a server, which decides between the client and server of a Windows build.
 */
export function parseOperatingSystem(texts: readonly unknown[], serverHint = false): OperatingSystem | null {
  const parts: string[] = [];
  for (const text of texts) {
    const part = typeof text === 'number' ? String(text) : typeof text === 'string' ? text.trim() : '';
    if (!part) continue;
    // A part another part already holds adds nothing; one that holds an earlier part takes its place
    // ("CentOS Linux" and "CentOS Linux release 7.9.2009 (Core)").
    const lower = part.toLowerCase();
    if (parts.some((other) => other.toLowerCase().includes(lower))) continue;
    const held = parts.findIndex((other) => lower.includes(other.toLowerCase()));
    if (held >= 0) parts[held] = part;
    else parts.push(part);
  }
  if (!parts.length) return null;
  const text = parts.join(' ');
  const key = serverHint ? `S|${text}` : text;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const parsed = parse(text, serverHint);
  if (cache.size >= cacheLimit) cache.clear();
  cache.set(key, parsed);
  return parsed;
}
