import { resolveDateMath, type QueryNode, type QueryValue } from '../../core/query/index.js';
import { fieldError } from '../http/errors.js';

// Bounds on what one query may ask of the database (on top of the statement timeout every inventory query runs
// under): a long regular expression or a huge tree is refused before it is sent.
export const maximumRegexLength = 200;
export const maximumConditions = 200;

export type CompiledQuery = { sql: string; params: unknown[] };

/**
 * Compiles a query tree (saved queries already expanded) into a parameterized SQL condition over a JSONB column
 * that maps each field to the list of its values (`{"OS.Type": ["Windows"], "IpAddresses": ["10.0.0.1"]}`).
 * Field names and values only ever travel as parameters. Text matches ignore case; `*` is a wildcard; dates are
 * ISO-8601 UTC strings, so they compare as text.
 */
export function compileQuery(node: QueryNode, options: { column: string; firstParameter: number; now?: Date }): CompiledQuery {
  const params: unknown[] = [];
  const parameter = (value: unknown) => {
    params.push(value);
    return `$${options.firstParameter + params.length - 1}`;
  };
  const anyValue = (field: string, condition: (value: string) => string) =>
    `exists (select 1 from jsonb_array_elements_text(coalesce(${options.column}->${parameter(field)}, '[]'::jsonb)) as field_value(value) where ${condition('field_value.value')})`;

  const comparison = (field: string, operator: string, value: QueryValue): string => {
    if (value.kind === 'regex') {
      if (value.pattern.length > maximumRegexLength) throw fieldError('query', `Regular expressions are limited to ${maximumRegexLength} characters.`);
      const matches = anyValue(field, (column) => `${column} ${value.flags.includes('i') ? '~*' : '~'} ${parameter(value.pattern)}`);
      return operator === '!=' ? `not ${matches}` : matches;
    }
    if (value.kind === 'number') {
      const sqlOperator = operator === '!=' ? '=' : operator;
      const numeric = (column: string) => `case when ${column} ~ '^-?[0-9]+(\\.[0-9]+)?$' then ${column}::numeric end`;
      const matches = anyValue(field, (column) => `${numeric(column)} ${sqlOperator} ${parameter(value.value)}`);
      return operator === '!=' ? `not ${matches}` : matches;
    }
    if (operator === '=' || operator === '!=') {
      const pattern = value.text.replace(/[\\%_]/g, (character) => `\\${character}`).replace(/\*/g, '%');
      const matches = anyValue(field, (column) => (value.text.includes('*') ? `${column} ilike ${parameter(pattern)}` : `lower(${column}) = lower(${parameter(value.text)})`));
      return operator === '!=' ? `not ${matches}` : matches;
    }
    return anyValue(field, (column) => `${column} ${operator} ${parameter(value.text)}`);
  };

  let conditions = 0;
  const compile = (current: QueryNode): string => {
    conditions += 1;
    if (conditions > maximumConditions) throw fieldError('query', `A query may hold at most ${maximumConditions} conditions (saved queries included).`);
    switch (current.kind) {
      case 'and':
        return `(${compile(current.left)} and ${compile(current.right)})`;
      case 'or':
        return `(${compile(current.left)} or ${compile(current.right)})`;
      case 'not':
        return `not (${compile(current.operand)})`;
      case 'exists':
        return `jsonb_array_length(coalesce(${options.column}->${parameter(current.field)}, '[]'::jsonb)) > 0`;
      case 'last':
        return anyValue(current.field, (column) => `${column} >= ${parameter(resolveDateMath(current.since, options.now ?? new Date()).toISOString())}`);
      case 'comparison':
        return comparison(current.field, current.operator, current.value);
      case 'saved-query':
        throw new Error(`Saved query ${current.id} must be expanded before compiling`);
    }
  };
  return { sql: compile(node), params };
}
