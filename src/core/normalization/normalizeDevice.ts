import { canonicalIp, canonicalMac } from './addresses.js';
import { deriveCategory, type DerivedCategory } from './category.js';
import type { OsLifecycle } from './lifecycle.js';
import { canonicalManufacturer, recognizeVirtualMachine } from './manufacturer.js';
import { BoundedMemo } from './memo.js';
import { parseOperatingSystem } from './operatingSystem.js';
import { virtualMachineRules } from './rules.js';

/** Where a normalized value came from: the source's raw value, the value it became and the rule (and why, for a category). */
export type Provenance = { field: string; raw: string; value: string; rule: string; reason?: string };

/**
 * The source-record field that lists the provenance of its normalized values. It stays on the source record (the
 * device's source tab shows it); merged assets never carry it.
 */
export const provenanceField = 'Normalization';

type Fields = Record<string, unknown[]>;

const firstText = (fields: Fields, field: string): string | undefined => {
  const value = fields[field]?.[0];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
};

/** The fields normalization writes, in the order the source tab lists them. */
export const normalizedFields = [
  'OS.Type', 'OS.Distribution', 'OS.Version', 'OS.Build', 'OS.Edition', 'OS.Architecture', 'OS.EndOfLife', 'OS.EndOfSupport', 'OS.EndOfExtendedSupport', 'OS.Supported',
  'DeviceManufacturer', 'Category', 'MacAddresses', 'IpAddresses',
] as const;

/** Sets a field to one normalized value, noting its provenance when the source wrote something else (or nothing). */
function setValue(fields: Fields, provenance: Provenance[], field: string, value: string | boolean, raw: string, rule: string, reason?: string): void {
  const before = fields[field];
  if (before?.length === 1 && before[0] === value) return;
  fields[field] = [value];
  provenance.push({ field, raw: before?.length ? before.map(String).join(', ') : raw, value: String(value), rule, ...(reason && { reason }) });
}

const fullStringOrder = ['OS.FullOsString', 'OS.Distribution', 'OS.Version', 'OS.Build', 'OS.Type', 'OS.Architecture'];
const typeOrder = ['OS.Distribution', 'OS.Type', 'OS.Version', 'OS.Build', 'OS.Architecture'];
const serverCategory = /\bserver\b|domain\s+controller/i;

/** What a record's OS texts normalize to: the values to set, the raw text they came from and the rules that read it. */
type OperatingSystemOutcome = { values: readonly (readonly [string, string])[]; raw: string; rule: string } | null;
// Keyed by the OS texts a record gives (and whether it is called a server): a fleet repeats a few hundred of them.
const operatingSystemOutcomes = new BoundedMemo<OperatingSystemOutcome>(5000);

function readOperatingSystem(texts: (string | undefined)[], serverHint: boolean): OperatingSystemOutcome {
  const system = parseOperatingSystem(texts, serverHint);
  if (!system) return null;
  const candidates: [string, string | undefined][] = [
    ['OS.Type', system.type], ['OS.Distribution', system.distribution], ['OS.Version', system.version],
    ['OS.Build', system.build], ['OS.Edition', system.edition], ['OS.Architecture', system.architecture],
  ];
  // A value the rules do not give keeps what the source wrote (a Linux kernel's version, say).
  const values = candidates.filter((candidate): candidate is [string, string] => Boolean(candidate[1]));
  return { values, raw: texts.filter(Boolean).join(' '), rule: system.rule };
}

function normalizeOperatingSystem(fields: Fields, provenance: Provenance[]): void {
  // A full string reads first, its version right after it ("Red Hat Enterprise Linux" then "9.3 (Plow)"); a type then
  // only adds what the full string lacks (osquery's platform "rhel" of a CentOS). Without one, the type leads.
  const order = fields['OS.FullOsString'] ? fullStringOrder : typeOrder;
  const category = firstText(fields, 'Category');
  const serverHint = category !== undefined && serverCategory.test(category);
  // The memo's key is the texts themselves (a string, not an array, so a cached record allocates nothing).
  let key = serverHint ? 'S' : 'C';
  let anyText = false;
  for (const field of order) {
    const text = firstText(fields, field);
    if (text) anyText = true;
    key += `\u0000${text ?? ''}`;
  }
  if (!anyText) return;
  let outcome = operatingSystemOutcomes.get(key);
  if (outcome === undefined) outcome = operatingSystemOutcomes.set(key, readOperatingSystem(order.map((field) => firstText(fields, field)), serverHint));
  if (!outcome) return;
  for (const [field, value] of outcome.values) setValue(fields, provenance, field, value, outcome.raw, outcome.rule);
}

/**
 * The lifecycle feed's dates and whether the OS is still supported on the snapshot's day, from the normalized
 * distribution, version and edition; an OS the feed does not know (or a value its cycles disagree on) gets nothing.
 */
function normalizeLifecycle(fields: Fields, provenance: Provenance[], lifecycle: OsLifecycle): void {
  const facts = lifecycle.factsOf({ distribution: firstText(fields, 'OS.Distribution'), version: firstText(fields, 'OS.Version'), edition: firstText(fields, 'OS.Edition') });
  if (!facts) return;
  for (const [field, value] of facts.values) setValue(fields, provenance, field, value, facts.raw, facts.rule, facts.reason);
}

// A serial number is unique per device, so the memo of virtual machines and categories keys on which serial rules it
// matches rather than on the serial itself.
const serialRules = virtualMachineRules.filter((rule) => rule.field === 'SerialNumber');
// Keyed by the manufacturer, model, source category, OS and the serial rules matched: the answer depends on nothing else.
const categoryOutcomes = new BoundedMemo<DerivedCategory | null>(5000);

function normalizeCategory(fields: Fields, provenance: Provenance[]): void {
  const manufacturer = firstText(fields, 'DeviceManufacturer');
  const model = firstText(fields, 'DeviceModel');
  const serial = firstText(fields, 'SerialNumber');
  const sourceCategory = firstText(fields, 'Category');
  const osType = firstText(fields, 'OS.Type');
  const distribution = firstText(fields, 'OS.Distribution');
  let serialMatches = '';
  for (const rule of serialRules) serialMatches += serial && rule.pattern.test(serial) ? '1' : '0';
  const key = `${serialMatches}\u0000${manufacturer ?? ''}\u0000${model ?? ''}\u0000${sourceCategory ?? ''}\u0000${osType ?? ''}\u0000${distribution ?? ''}`;
  let category = categoryOutcomes.get(key);
  if (category === undefined) {
    const virtualMachine = recognizeVirtualMachine({ DeviceManufacturer: manufacturer, DeviceModel: model, SerialNumber: serial, Category: sourceCategory });
    category = deriveCategory({ Category: sourceCategory, DeviceModel: model, DeviceManufacturer: manufacturer, 'OS.Type': osType, 'OS.Distribution': distribution }, virtualMachine);
    // A machine recognised by its serial number names that serial as the raw value: that answer is this record's alone.
    if (virtualMachine?.field !== 'SerialNumber') categoryOutcomes.set(key, category);
  }
  if (category) setValue(fields, provenance, 'Category', category.category, category.raw, category.rule, category.reason);
}

function normalizeAddresses(fields: Fields, provenance: Provenance[], field: string, canonical: (raw: string) => string, rule: string): void {
  const values = fields[field];
  if (!values) return;
  // The list is copied only from the first value that changes (or repeats an earlier one): most are canonical already.
  let canonicalValues: unknown[] | null = null;
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    const next = typeof value === 'string' ? canonical(value) : value;
    if (next !== value) provenance.push({ field, raw: String(value), value: String(next), rule });
    if (!canonicalValues && (next !== value || values.indexOf(value) < index)) canonicalValues = values.slice(0, index);
    if (canonicalValues && !canonicalValues.includes(next)) canonicalValues.push(next);
  }
  if (canonicalValues) fields[field] = canonicalValues;
}

/** What normalization reads besides its rules: the lifecycle feed of the discovery, when the server has one. */
export type NormalizationContext = { lifecycle?: OsLifecycle };

/**
 * Normalizes a device record's fields in place, after mapping and before correlation, and lists the provenance of
 * every value it changed or derived (also stored under `Normalization` on the record when there is any):
 * the operating system (type, distribution, version, build, edition, architecture) from whatever OS fields the source
 * filled, with its end of life and support from the lifecycle feed when one is given, one canonical manufacturer,
 * virtual machines recognised, a category with its reason, canonical MAC and IP addresses. Rules are the data of
 * schemas/normalization/*.json.
 */
export function normalizeDeviceFields(fields: Fields, context: NormalizationContext = {}): Provenance[] {
  const provenance: Provenance[] = [];
  normalizeOperatingSystem(fields, provenance);
  if (context.lifecycle) normalizeLifecycle(fields, provenance, context.lifecycle);
  const manufacturers = fields.DeviceManufacturer;
  if (manufacturers?.length) {
    const canonicalValues: unknown[] = [];
    for (const value of manufacturers) {
      const canonical = canonicalManufacturer(value);
      const next = canonical?.name ?? value;
      if (canonical && next !== value) provenance.push({ field: 'DeviceManufacturer', raw: String(value), value: next as string, rule: canonical.rule });
      if (!canonicalValues.includes(next)) canonicalValues.push(next);
    }
    fields.DeviceManufacturer = canonicalValues;
  }
  normalizeCategory(fields, provenance);
  normalizeAddresses(fields, provenance, 'MacAddresses', canonicalMac, 'addresses#mac');
  normalizeAddresses(fields, provenance, 'IpAddresses', canonicalIp, 'addresses#ip');
  if (provenance.length) fields[provenanceField] = provenance;
  return provenance;
}
