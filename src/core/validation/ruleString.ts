import { validationRuleCatalogue, type ValidationRuleName } from '../../generated/validationRules.js';

/** One rule of a rule string with its parameters. Before: `"between:1,10"`; after: `{ name: 'between', parameters: ['1', '10'] }`. */
export type ParsedRule = { name: ValidationRuleName; parameters: string[] };

export class UnknownRuleError extends Error {
  constructor(readonly ruleName: string) {
    super(`Unknown validation rule "${ruleName}"`);
    this.name = 'UnknownRuleError';
  }
}

export const isRuleName = (name: string): name is ValidationRuleName => Object.hasOwn(validationRuleCatalogue, name);

/** Reads one `name:parameters` segment; the catalogue says how many parameters it takes and how they are split. */
export function parseRule(segment: string): ParsedRule {
  const colon = segment.indexOf(':');
  const name = (colon < 0 ? segment : segment.slice(0, colon)).trim();
  if (!isRuleName(name)) throw new UnknownRuleError(name);
  const definition = validationRuleCatalogue[name];
  const text = colon < 0 ? '' : segment.slice(colon + 1);
  const parameters = definition.raw ? [text] : text === '' ? [] : text.split(',').map((parameter) => parameter.trim());
  const wanted = definition.parameters.length;
  const fits = definition.rest ? parameters.length >= wanted : parameters.length === wanted;
  if (!fits || (definition.raw && text === '')) {
    throw new Error(`Validation rule "${name}" takes ${definition.rest ? 'at least ' : ''}${wanted} parameter(s): ${definition.parameters.join(', ') || 'none'}`);
  }
  return { name, parameters };
}

/**
 * Splits a rule string into rules, in order. An unknown rule name throws (spec §5).
 * Before: `"required|email|min:3"`; after: required, email, min with ['3']. Everything after `regex:` is its pattern
 * (it may hold `|` and `,`), so a `regex` rule comes last.
 */
export function parseRules(rules: string): ParsedRule[] {
  const regexAt = rules.search(/(^|\|)\s*regex:/);
  const head = regexAt < 0 ? rules : rules.slice(0, regexAt);
  const tail = regexAt < 0 ? null : rules.slice(regexAt).replace(/^\|/, '');
  const segments = head.split('|').filter((segment) => segment.trim() !== '');
  return [...segments, ...(tail === null ? [] : [tail])].map(parseRule);
}

/** Whether a rule string makes its field required (spec §5: it contains the word required). */
export const rulesRequire = (rules: string | undefined): boolean => rules !== undefined && /(^|\|)\s*required\s*(\||$)/.test(rules);
