import { resolveDateMath, type QueryNode, type QueryValue, type ComparisonOperator } from '../../core/query/index.js';
import type { IndexedField } from '../inventory/indexedFields.js';

// Conditions over a snapshot's typed columns (`snapshot_index`), answering exactly what the JSONB form of
// compileQuery.ts answers for the same asset. Where the typed form could differ from it — regular expressions,
// text that reads as a number, letters beyond ASCII (whose case folding PostgreSQL's regular expressions and
// lower() may not share), ordering of lower-cased text — there is no typed form and the whole query reads the
// documents instead.

/** A condition on one field (the leaves of a query tree). */
export type ConditionNode = Exclude<QueryNode, { kind: 'and' | 'or' | 'not' | 'saved-query' }>;

const jsonNumber = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const ascii = /^[\x20-\x7e]*$/;

// `Field < value` holds when some value of the field is below it: `value > any(values)`.
const mirrored: Record<Exclude<ComparisonOperator, '=' | '!='>, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** A case-blind LIKE pattern of query text: `Web-*` → `web-%`, with LIKE's own characters escaped. */
function likePattern(text: string): string {
  return text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`).replace(/\*/g, '%');
}

function comparison(field: IndexedField, operator: ComparisonOperator, value: QueryValue, parameter: (value: unknown) => string): string | null {
  const negated = (matches: string) => (operator === '!=' ? `not ${matches}` : matches);
  if (value.kind === 'regex') return null;
  if (value.kind === 'number') {
    if (field.kind !== 'number') return null;
    const number = `${parameter(value.value)}::float8`;
    return operator === '=' || operator === '!=' ? negated(`${number} = any(${field.column})`) : `${number} ${mirrored[operator]} any(${field.column})`;
  }
  if (operator === '=' || operator === '!=') {
    if (field.kind !== 'text' || !ascii.test(value.text) || jsonNumber.test(value.text)) return null;
    if (!value.text.includes('*')) return negated(`${parameter(value.text.toLowerCase())} = any(${field.column})`);
    return negated(`exists (select 1 from unnest(${field.column}) as field_value(value) where value like ${parameter(likePattern(value.text))})`);
  }
  // Text ordering compares values as written, which only dates keep.
  return field.kind === 'date' ? `${parameter(value.text)} ${mirrored[operator]} any(${field.column})` : null;
}

/** The typed form of one condition, or null when only the documents can answer it. */
export function indexedCondition(leaf: ConditionNode, indexed: ReadonlyMap<string, IndexedField>, parameter: (value: unknown) => string, now: Date): string | null {
  const field = indexed.get(leaf.field);
  if (!field) return null;
  switch (leaf.kind) {
    case 'exists':
      return `${field.firstColumn} is not null`;
    case 'last':
      // jsonpath compares strings by code point: so does the "C" collation.
      return field.kind === 'date' ? `${parameter(resolveDateMath(leaf.since, now).toISOString())} collate "C" <= any(${field.column})` : null;
    case 'comparison':
      return comparison(field, leaf.operator, leaf.value, parameter);
  }
}
