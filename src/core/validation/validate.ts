import { defaultValidationMessage, validationRuleCatalogue } from '../../generated/validationRules.js';
import { parseRules, type ParsedRule } from './ruleString.js';
import { isEmptyValue, ruleImplementations, type RuleContext } from './rules.js';

/** The field being validated: its label goes into the message ({field}); the form's values serve `confirmed`. */
export type ValidationContext = RuleContext & { field: string; labels?: Record<string, string> };

/**
 * A catalogue message with its placeholders filled. Before: `"The {field} field must be {min} or more."`, field
 * "Port", min 1; after: `"The Port field must be 1 or more."`. A rule without a message gets the default one.
 */
export function ruleMessage(rule: ParsedRule, context: Pick<ValidationContext, 'field' | 'labels'>): string {
  const definition = validationRuleCatalogue[rule.name];
  const names = definition.parameters;
  const values: Record<string, string> = { field: context.field };
  names.forEach((name, index) => {
    values[name] = definition.rest && index === names.length - 1 ? rule.parameters.slice(index).join(', ') : (rule.parameters[index] ?? '');
  });
  // `confirmed` names another field: show its label, not its key.
  if (rule.name === 'confirmed') values.target = context.labels?.[values.target] ?? values.target;
  return (definition.message ?? defaultValidationMessage).replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The default message of spec §5 for a field: "The {field} is not valid.". */
export const defaultMessageFor = (field: string): string => defaultValidationMessage.replace('{field}', field);

// A FileList (from a file input) is checked file by file like any other list.
const asList = (value: unknown): unknown[] | null => {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null && typeof (value as { item?: unknown }).item === 'function' && typeof (value as { length?: unknown }).length === 'number') {
    return Array.from(value as ArrayLike<unknown>);
  }
  return null;
};

async function passes(rule: ParsedRule, value: unknown, context: ValidationContext): Promise<boolean> {
  const implementation = ruleImplementations[rule.name];
  if (!implementation.checksEmpty && isEmptyValue(value)) return true;
  const list = asList(value);
  if (implementation.each && list) {
    for (const item of list) if (!(await implementation.check(item, rule.parameters, context))) return false;
    return true;
  }
  return implementation.check(list ?? value, rule.parameters, context);
}

/**
 * Runs a field's rules in order and answers the message of the first that fails, or null when all pass (spec §5).
 * Before: `validateValue('', 'required|email', { field: 'Email' })`; after: `"The Email field is required."`.
 * An unknown rule name throws before anything is checked.
 */
export async function validateValue(value: unknown, rules: string | ParsedRule[], context: ValidationContext): Promise<string | null> {
  const parsed = typeof rules === 'string' ? parseRules(rules) : rules;
  for (const rule of parsed) if (!(await passes(rule, value, context))) return ruleMessage(rule, context);
  return null;
}

/** Validates several fields of one form; answers field name → message for the failing ones. */
export async function validateValues(
  values: Record<string, unknown>,
  rulesByField: Record<string, string>,
  labels: Record<string, string>,
  extra: RuleContext = {},
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  for (const [field, rules] of Object.entries(rulesByField)) {
    const message = await validateValue(values[field], rules, { ...extra, values, labels, field: labels[field] ?? field });
    if (message !== null) errors[field] = message;
  }
  return errors;
}
