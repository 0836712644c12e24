import { BoundedMemo } from './memo.js';
import { lifecycleRules, type LifecycleRule } from './rules.js';

/**
 * One phase of a release cycle as the lifecycle feed gives it: the day it ends (the last day it holds, as
 * endoflife.date counts), or only whether it had ended when the feed was generated.
 */
export type LifecyclePhase = { date: string | null; ended: boolean };

/**
 * A release cycle of the lifecycle feed (endoflife.date's product and cycle): end of life (security updates end),
 * and, where the product has them, end of active support and end of extended (paid) support.
 */
export type LifecycleCycle = { product: string; cycle: string; eol: LifecyclePhase; eoas: LifecyclePhase | null; eoes: LifecyclePhase | null };

/** What the feed says of one operating system on a day; a value the matched cycles do not agree on is absent. */
export type LifecycleFacts = {
  product: string; cycles: string[]; rule: string;
  endOfLife?: string; endOfSupport?: string; endOfExtendedSupport?: string; supported?: boolean;
  /** The device fields these give, the OS text they were read for and why, as normalization writes them on every record of this OS. */
  values: readonly (readonly [string, string | boolean])[]; raw: string; reason: string;
};

/** The OS a record names, as normalization left it. */
export type OsRelease = { distribution?: string; version?: string; edition?: string };

/** Every product name the rules read from the feed (their aliases too): the rest of the feed is of no use to them. */
export const lifecycleProductNames: readonly string[] = [...new Set(lifecycleRules.flatMap((rule) => [rule.product, ...rule.aliases]))];

/** Whether a phase has ended on a day (ISO `YYYY-MM-DD`): after its last day, or as the feed said when it has no date. */
export function phaseEnded(phase: LifecyclePhase, day: string): boolean {
  return phase.date ? day > phase.date : phase.ended;
}

// Placeholder values as cycle names spell them: "2012 R2" → "2012-r2", "23H2" → "23h2".
const cycleSpelling = (value: string) => value.trim().toLowerCase().replace(/\s+/g, '-');
const leadingNumber = /^\d+(?:\.\d+)*/;

/**
 * The version's leading dotted number and its shorter prefixes, longest first, each also without leading zeros
 * when it has some (Cisco's 17.09 is the feed's 17.9, Ubuntu's 22.04 stays): "17.09.04a" → 17.09.04, 17.9.4, 17.09,
 * 17.9, 17.
 */
function versionPrefixes(version: string): string[] {
  const parts = leadingNumber.exec(version)?.[0].split('.') ?? [];
  return [...new Set(parts.flatMap((_, index) => {
    const prefix = parts.slice(0, parts.length - index);
    return [prefix.join('.'), prefix.map((part) => String(Number(part))).join('.')];
  }))];
}

/**
 * The groups of cycle names a template can mean, in the order they are tried; the names of one group must agree
 * (an unknown edition's -e and -w). Before: `{major}-{version}-{edition}` with major 11, version 23H2 and no
 * edition; after: `[["11-23h2-e", "11-23h2-w"]]`.
 */
function expandTemplate(template: string, rule: LifecycleRule, groups: Record<string, string>, release: OsRelease): string[][] {
  let version = release.version?.trim();
  for (const rewrite of rule.versionRewrites) if (version && rewrite.pattern.test(version)) version = version.replace(rewrite.pattern, rewrite.replacement);
  const editionSuffix = release.edition ? rule.editions[release.edition] : undefined;
  const editions = editionSuffix ? [editionSuffix] : rule.editionsWhenUnknown;
  const prefixes = version ? versionPrefixes(version) : [];
  if ((template.includes('{version}') && !version) || (template.includes('{versionPrefix}') && !prefixes.length) || (template.includes('{edition}') && !editions.length)) return [];
  let named = template.replace(/\{version\}/g, version ? cycleSpelling(version) : '');
  for (const [group, value] of Object.entries(groups)) named = named.replaceAll(`{${group}}`, cycleSpelling(value));
  const byPrefix = template.includes('{versionPrefix}') ? prefixes.map((prefix) => named.replace(/\{versionPrefix\}/g, prefix)) : [named];
  return byPrefix.map((name) => (name.includes('{edition}') ? editions.map((edition) => name.replace(/\{edition\}/g, edition)) : [name]));
}

/** A value every cycle gives alike, or undefined. */
function agreed<Value>(values: (Value | undefined)[]): Value | undefined {
  return values.every((value) => value !== undefined && value === values[0]) ? values[0] : undefined;
}

/**
 * The lifecycle feed's cycles read for one discovery, on the day its snapshot describes: answers what the feed says
 * of each OS (distribution, version and edition, as normalization left them), once per distinct OS. The rules
 * (schemas/normalization/os-lifecycle.json) name the product and cycle. Before: `{distribution: "Ubuntu", version:
 * "22.04.3"}` on 2026-11-28; after: `{product: "ubuntu", cycles: ["22.04"], endOfLife: "2027-04-01", supported: true, …}`.
 */
export class OsLifecycle {
  private readonly cycles = new Map<string, LifecycleCycle>();
  private readonly products = new Set<string>();
  private readonly answers = new BoundedMemo<LifecycleFacts | null>(5000);

  constructor(cycles: Iterable<LifecycleCycle>, readonly day: string) {
    for (const cycle of cycles) {
      this.cycles.set(`${cycle.product}\u0000${cycle.cycle}`, cycle);
      this.products.add(cycle.product);
    }
  }

  factsOf(release: OsRelease): LifecycleFacts | null {
    if (!release.distribution) return null;
    const key = `${release.distribution}\u0000${release.version ?? ''}\u0000${release.edition ?? ''}`;
    const known = this.answers.get(key);
    return known !== undefined ? known : this.answers.set(key, this.match(release));
  }

  private match(release: OsRelease): LifecycleFacts | null {
    const rule = lifecycleRules.find((candidate) => candidate.distribution.test(release.distribution!));
    if (!rule) return null;
    const groups = Object.fromEntries(Object.entries(rule.distribution.exec(release.distribution!)?.groups ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const product = [rule.product, ...rule.aliases].find((name) => this.products.has(name));
    if (!product) return null;
    for (const template of rule.cycles) {
      for (const names of expandTemplate(template, rule, groups, release)) {
        const found = names.map((name) => this.cycles.get(`${product}\u0000${name}`)).filter((cycle): cycle is LifecycleCycle => cycle !== undefined);
        if (found.length) return this.facts(rule, product, found, release);
      }
    }
    return null;
  }

  private facts(rule: LifecycleRule, product: string, found: LifecycleCycle[], release: OsRelease): LifecycleFacts {
    const cycles = found.map((cycle) => cycle.cycle);
    const endOfLife = agreed(found.map((cycle) => cycle.eol.date ?? undefined));
    const endOfSupport = agreed(found.map((cycle) => cycle.eoas?.date ?? undefined));
    const endOfExtendedSupport = agreed(found.map((cycle) => cycle.eoes?.date ?? undefined));
    const supported = agreed(found.map((cycle) => !phaseEnded(cycle.eol, this.day)));
    const fields: [string, string | boolean | undefined][] = [
      ['OS.EndOfLife', endOfLife], ['OS.EndOfSupport', endOfSupport], ['OS.EndOfExtendedSupport', endOfExtendedSupport], ['OS.Supported', supported],
    ];
    return {
      product, cycles, rule: `os-lifecycle#${rule.name}`, endOfLife, endOfSupport, endOfExtendedSupport, supported,
      values: fields.filter((field): field is [string, string | boolean] => field[1] !== undefined),
      raw: [release.distribution, release.version, release.edition].filter(Boolean).join(' '),
      reason: `from lifecycle feed ${product} ${cycles.join('/')}`,
    };
  }
}
