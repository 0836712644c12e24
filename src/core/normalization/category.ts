import { categoryPrecedence, categoryRules, virtualMachineCategory, type CategoryRule } from './rules.js';
import type { VirtualMachine } from './manufacturer.js';

export type CategoryHints = Partial<Record<CategoryRule['field'], string>>;
export type DerivedCategory = { category: string; reason: string; rule: string; raw: string };

/**
 * A record's category from every hint it gives: a recognised virtual machine first, then the first rule of
 * schemas/normalization/categories.json whose field matches (the source's own words, its model, its operating system).
 * Before: `{DeviceModel: "Latitude 7440", Category: "Workstation"}`; after: `{category: "Laptop", reason: "laptop
 * model: DeviceModel is \"Latitude 7440\""}`.
 */
export function deriveCategory(hints: CategoryHints, virtualMachine: VirtualMachine | null): DerivedCategory | null {
  if (virtualMachine) {
    return { category: virtualMachineCategory, reason: `${virtualMachine.platform} virtual machine: ${virtualMachine.field} is "${virtualMachine.raw}"`, rule: virtualMachine.rule, raw: virtualMachine.raw };
  }
  for (const rule of categoryRules) {
    const value = hints[rule.field];
    if (value && rule.pattern.test(value)) return { category: rule.category, reason: `${rule.reason}: ${rule.field} is "${value}"`, rule: `categories#${rule.name}`, raw: value };
  }
  return null;
}

const rankOf = (category: unknown) => {
  const position = categoryPrecedence.indexOf(String(category));
  return position < 0 ? categoryPrecedence.length : position;
};

/**
 * Of the categories a device's sources give (the preferred source first), the one that says the most: a virtual
 * machine that one source calls a server is a virtual machine; ties keep the sources' precedence.
 */
export function mostSpecificCategory(values: readonly unknown[]): unknown {
  let best = values[0];
  for (const value of values) if (rankOf(value) < rankOf(best)) best = value;
  return best;
}
