import { BoundedMemo } from './memo.js';
import { companyForms, manufacturers, virtualMachineRules, type VirtualMachineRule } from './rules.js';

/**
 * A manufacturer's spelling compared with the aliases: lower case, dots and commas dropped, other punctuation a
 * space, company forms left out. Before: `"ASUSTeK COMPUTER INC."`; after: `"asustek computer"`.
 */
export function foldManufacturer(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[.,'’]/g, '')
    .split(/[^a-z0-9&+]+/)
    .filter((word) => word && !companyForms.has(word))
    .join(' ');
}

const byAlias = new Map<string, string>();
for (const manufacturer of manufacturers) for (const alias of manufacturer.aliases) byAlias.set(foldManufacturer(alias), manufacturer.name);

export type CanonicalManufacturer = { name: string; rule: string };

const canonicalManufacturers = new BoundedMemo<CanonicalManufacturer>(5000);

/**
 * One canonical manufacturer. Before: `"Dell Inc."`, `"DELL"`, `"Hewlett-Packard"`; after: `Dell`, `Dell`, `HP`. A
 * spelling no alias names keeps its words without the company form ("Acme Widgets, Inc." → "Acme Widgets").
 */
export function canonicalManufacturer(raw: unknown): CanonicalManufacturer | null {
  if (typeof raw !== 'string' || !raw.trim()) return null;
  return canonicalManufacturers.get(raw) ?? canonicalManufacturers.set(raw, readManufacturer(raw));
}

function readManufacturer(raw: string): CanonicalManufacturer {
  const folded = foldManufacturer(raw);
  const known = byAlias.get(folded);
  if (known) return { name: known, rule: `manufacturers#${known}` };
  // "Dell Computer Corp Texas" names Dell first: a one-word alias opening the name is the manufacturer.
  const first = byAlias.get(folded.split(' ')[0]);
  if (first && folded.split(' ')[0].length >= 3) return { name: first, rule: `manufacturers#${first}` };
  const words = raw.trim().replace(/[,.]+$/, '').split(/\s+/);
  while (words.length > 1 && companyForms.has(words[words.length - 1].toLowerCase().replace(/[.,]/g, ''))) words.pop();
  return { name: words.join(' ').replace(/,$/, ''), rule: 'manufacturers#as-reported' };
}

export type VirtualMachine = { platform: string; rule: string; field: VirtualMachineRule['field']; raw: string };

/**
 * A virtual machine recognised from what its hypervisor writes: manufacturer "VMware", model "VMware Virtual
 * Platform", Microsoft's "Virtual Machine", a serial number "VMware-56 4d…", a cloud instance type.
 * `manufacturer` is the canonical one.
 */
export function recognizeVirtualMachine(values: { DeviceManufacturer?: string; DeviceModel?: string; SerialNumber?: string; Category?: string }): VirtualMachine | null {
  for (const rule of virtualMachineRules) {
    const value = values[rule.field];
    if (!value || !rule.pattern.test(value)) continue;
    if (rule.manufacturer && !(values.DeviceManufacturer && rule.manufacturer.test(values.DeviceManufacturer))) continue;
    return { platform: rule.platform, rule: `manufacturers#${rule.name}`, field: rule.field, raw: value };
  }
  return null;
}
