import { resolveDateMath, type QueryNode, type QueryValue, type ComparisonOperator } from '../../core/query/index.js';
import type { IndexedField } from '../inventory/indexedFields.js';
import { nonStringMark, valueSeparator } from '../inventory/snapshotIndex.js';

// Conditions over a snapshot's typed columns (`snapshot_index`), answering exactly what the JSONB form of
// compileQuery.ts answers for the same asset. Where the typed form could differ from it — regular expressions,
// text that reads as a number, letters beyond ASCII (whose case folding PostgreSQL's regular
// expressions and lower() may not share), text compared with `<` (text columns are lower-cased) — there is no typed
// form and the whole query reads the documents instead.

/** A condition on one field (the leaves of a query tree). */
export type ConditionNode = Exclude<QueryNode, { kind: 'and' | 'or' | 'not' | 'saved-query' | 'in' | 'contains' | 'free-text' }>;

const jsonNumber = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const booleanText = /^(true|false)$/i;
const ascii = /^[\x20-\x7e]*$/;
const regexSyntax = /[!-/:-@[-`{-~]/g;

// `Field < value` holds when some value of the field is below it: `value > any(values)`.
const mirrored: Record<Exclude<ComparisonOperator, '=' | '!='>, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * A regular expression finding a string value that matches query text with `*` wildcards in a text column
 * (snapshotIndex.ts): `Web-*` → `\x1f(?!\x01)web\-[^\x1f]*\x1f`.
 */
function wildcardPattern(text: string): string {
  const parts = text.toLowerCase().split('*').map((part) => part.replace(regexSyntax, (character) => `\\${character}`));
  return `${valueSeparator}(?!${nonStringMark})${parts.join(`[^${valueSeparator}]*`)}${valueSeparator}`;
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
    const holds = (stored: string) => `(position(${parameter(`${valueSeparator}${stored}${valueSeparator}`)} in ${field.column}) > 0)`;
    // `true` finds the string in any case and the boolean a source reported (kept as written behind the mark);
    // `TRUE` finds the string only, as the documents' jsonpath does.
    if (booleanText.test(value.text)) {
      const reported = value.text === 'true' || value.text === 'false' ? ` or ${holds(`${nonStringMark}${value.text}`)}` : '';
      return negated(`(${holds(value.text.toLowerCase())}${reported})`);
    }
    if (!value.text.includes('*')) return negated(holds(value.text.toLowerCase()));
    // The longest run of text between wildcards must appear in the column for the pattern to match: a substring
    // test is far cheaper than the regular expression, which then decides only for the rows that hold it.
    const longest = value.text.toLowerCase().split('*').reduce((best, part) => (part.length > best.length ? part : best), '');
    const candidate = longest ? `strpos(${field.column}, ${parameter(longest)}) > 0 and ` : '';
    return negated(`(${candidate}${field.column} ~ ${parameter(wildcardPattern(value.text))})`);
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
      // Number columns keep numbers only, so whether the field has any value at all is the documents' to say.
      return { text: `${field.column} <> ''`, date: `cardinality(${field.column}) > 0`, number: null }[field.kind];
    case 'last':
      // jsonpath compares strings by code point: so does the "C" collation.
      return field.kind === 'date' ? `${parameter(resolveDateMath(leaf.since, now).toISOString())} collate "C" <= any(${field.column})` : null;
    case 'comparison':
      return comparison(field, leaf.operator, leaf.value, parameter);
  }
}
