// The normalization rules are data (schemas/normalization/*.json): adding a vendor's spelling is a line of JSON, not a
// code branch. This module reads the files once and compiles their patterns.
import categoryFile from '../../../schemas/normalization/categories.json' with { type: 'json' };
import manufacturerFile from '../../../schemas/normalization/manufacturers.json' with { type: 'json' };
import operatingSystemFile from '../../../schemas/normalization/operating-systems.json' with { type: 'json' };
import lifecycleFile from '../../../schemas/normalization/os-lifecycle.json' with { type: 'json' };
import windowsBuildFile from '../../../schemas/normalization/windows-builds.json' with { type: 'json' };

export type Derivation = 'windowsBuild' | 'darwin' | 'macosName';

export type OperatingSystemRule = {
  name: string; pattern: RegExp; type: string; distribution?: string; derive?: Derivation;
  editions: NamedPattern[]; versionPattern?: RegExp; buildPattern?: RegExp; serverPattern?: RegExp;
};
export type NamedPattern = { name: string; pattern: RegExp };
export type WindowsBuild = { build: number; client?: string; clientRelease?: string; server?: string; serverRelease?: string };
export type DarwinRelease = { darwin: number; macos: string; name: string; minorOffset?: number };
export type VirtualMachineRule = { name: string; field: 'DeviceManufacturer' | 'DeviceModel' | 'SerialNumber' | 'Category'; pattern: RegExp; manufacturer?: RegExp; platform: string };
export type LifecycleRule = {
  name: string; distribution: RegExp; product: string; aliases: string[]; cycles: string[];
  versionRewrites: { pattern: RegExp; replacement: string }[]; editions: Record<string, string>; editionsWhenUnknown: string[];
};
export type CategoryRule = { name: string; field: 'Category' | 'DeviceModel' | 'DeviceManufacturer' | 'OS.Type' | 'OS.Distribution'; pattern: RegExp; category: string; reason: string };

const compiled = (pattern: string) => new RegExp(pattern, 'i');

type RawOperatingSystemRule = Omit<OperatingSystemRule, 'pattern' | 'editions' | 'versionPattern' | 'buildPattern' | 'serverPattern'> & {
  pattern: string; editions?: string; versionPattern?: string; buildPattern?: string; serverPattern?: string;
};

const editionLists: Record<string, NamedPattern[]> = Object.fromEntries(
  Object.entries(operatingSystemFile.editions as Record<string, { name: string; pattern: string }[]>).map(([list, entries]) => [list, entries.map((entry) => ({ name: entry.name, pattern: compiled(entry.pattern) }))]),
);

export const operatingSystemRules: OperatingSystemRule[] = (operatingSystemFile.operatingSystems as RawOperatingSystemRule[]).map((rule) => ({
  ...rule,
  pattern: compiled(rule.pattern),
  editions: rule.editions ? editionLists[rule.editions] : [],
  versionPattern: rule.versionPattern ? compiled(rule.versionPattern) : undefined,
  buildPattern: rule.buildPattern ? compiled(rule.buildPattern) : undefined,
  serverPattern: rule.serverPattern ? compiled(rule.serverPattern) : undefined,
}));

export const architectures: NamedPattern[] = operatingSystemFile.architectures.map((entry) => ({ name: entry.name, pattern: compiled(entry.pattern) }));
export const darwinReleases: DarwinRelease[] = operatingSystemFile.darwinReleases;
export const windowsBuilds: Map<number, WindowsBuild> = new Map((windowsBuildFile.windowsBuilds as WindowsBuild[]).map((entry) => [entry.build, entry]));

export const companyForms: ReadonlySet<string> = new Set(manufacturerFile.companyForms);
export const manufacturers: { name: string; aliases: string[] }[] = manufacturerFile.manufacturers;
export const virtualMachineRules: VirtualMachineRule[] = manufacturerFile.virtualMachines.map((rule) => ({
  ...(rule as Omit<VirtualMachineRule, 'pattern' | 'manufacturer'>),
  pattern: compiled(rule.pattern),
  manufacturer: 'manufacturer' in rule && typeof rule.manufacturer === 'string' ? compiled(rule.manufacturer) : undefined,
}));

export const categoryRules: CategoryRule[] = categoryFile.categories.map((rule) => ({ ...(rule as Omit<CategoryRule, 'pattern'>), pattern: compiled(rule.pattern) }));
export const categoryPrecedence: readonly string[] = categoryFile.categoryPrecedence;
export const virtualMachineCategory = 'Virtual machine';

type RawLifecycleRule = Omit<LifecycleRule, 'distribution' | 'aliases' | 'versionRewrites' | 'editions' | 'editionsWhenUnknown'> & {
  distribution: string; aliases?: string[]; versionRewrites?: { pattern: string; replacement: string }[]; editions?: Record<string, string>; editionsWhenUnknown?: string[];
};

export const lifecycleRules: LifecycleRule[] = (lifecycleFile.lifecycleProducts as RawLifecycleRule[]).map((rule) => ({
  ...rule,
  distribution: compiled(rule.distribution),
  aliases: rule.aliases ?? [],
  versionRewrites: (rule.versionRewrites ?? []).map((rewrite) => ({ pattern: compiled(rewrite.pattern), replacement: rewrite.replacement })),
  editions: rule.editions ?? {},
  editionsWhenUnknown: rule.editionsWhenUnknown ?? [],
}));
