import { t } from '../../app/i18n/messages';
import { printValue } from '../../../core/query';
import { tokenize, type Token } from '../../../core/query/lexer';
import type { FieldMapEntry } from './inventoryApi';

/** A field the bar may suggest: its key (what the text holds), its title (what people read) and its value type. */
export type SuggestedField = { value: string; label: string; type?: FieldMapEntry['value_type'] };
/** One suggestion: what the list shows, and the text that replaces the word being typed. */
export type Suggestion = { label: string; detail: string; insert: string };
/**
 * The suggestions for the word ending at the caret, which runs from `from` to the caret; `values` asks for the
 * field's values holding the typed text (the server knows them), where a value is being written.
 */
export type Suggestions = { from: number; items: Suggestion[]; values?: { field: string; search: string; inList: boolean } };

type OperatorChoice = { operator: string; insert: string; detail: () => string };
const operator = (symbol: string, detail: () => string, insert = `${symbol} `): OperatorChoice => ({ operator: symbol, insert, detail });
const equals = operator('=', () => t('inventories.equalsWildcardsRegex'));
const differs = operator('!=', () => t('inventories.doesNotEqual'));
const inList = operator('in', () => t('inventories.suggestInList'), 'in [');
const exists = operator('exists', () => t('inventories.hasAValue'), 'exists');
const ordered = [
  operator('>', () => t('inventories.greaterThan')), operator('>=', () => t('inventories.atLeast')),
  operator('<', () => t('inventories.lessThan')), operator('<=', () => t('inventories.atMost')),
];
// The operators the query language gives meaning to for each value type (text compares by pattern, dates by date
// math, IPs by subnet or range), so the list never offers one the server would refuse or answer emptily.
const operatorsByType: Record<FieldMapEntry['value_type'], OperatorChoice[]> = {
  text: [equals, differs, operator('contains', () => t('inventories.suggestContains')), inList, exists],
  long: [equals, differs, ...ordered, inList, exists],
  double: [equals, differs, ...ordered, inList, exists],
  date: [operator('last', () => t('inventories.withinLastNow15d')), ...ordered, exists],
  ip: [operator('=', () => t('inventories.suggestInSubnet')), differs, inList, exists],
  boolean: [equals, differs, exists],
};

const isKeyword = (token: Token, ...words: string[]) => token.type === 'word' && words.includes(token.text.toUpperCase());

/** Where a field name may start: at the beginning, after AND / OR / NOT, or after an opening parenthesis. */
function startsCondition(previous: Token | undefined): boolean {
  return !previous || previous.type === 'open' || isKeyword(previous, 'AND', 'OR', 'NOT');
}

const isField = (token: Token | undefined, fields: SuggestedField[]): token is Token & { type: 'word' } => token?.type === 'word' && fields.some((field) => field.value === token.text);

/** The field whose value the caret is in: after `Field =`, `Field !=`, `Field contains`, or inside `Field in [a, `. */
function valueFieldOf(prior: Token[], fields: SuggestedField[]): string | null {
  let at = prior.length - 1;
  const previous = prior[at];
  if (!previous) return null;
  if (previous.type === 'list-open' || previous.type === 'comma') {
    while (at >= 0 && prior[at].type !== 'list-open') at -= 1;
    const field = prior[at - 2];
    return isKeyword(prior[at - 1] ?? previous, 'IN') && isField(field, fields) ? field.text : null;
  }
  const field = prior[at - 1];
  const takesValue = (previous.type === 'operator' && (previous.text === '=' || previous.text === '!=')) || isKeyword(previous, 'CONTAINS');
  return takesValue && isField(field, fields) ? field.text : null;
}

/** A value as query text: a number as written, other text quoted only where it must be. */
const valueText = (value: string, inList: boolean): string =>
  printValue(/^-?\d+(\.\d+)?$/.test(value) ? { kind: 'number', value: Number(value) } : { kind: 'text', text: value, quoted: false }, inList);

/** The server's values of a field as suggestions, the count of assets holding each beside it. */
export function valueSuggestions(values: { value: string; count: number }[], inList: boolean): Suggestion[] {
  return values.map(({ value, count }) => ({ label: value, detail: t('inventories.suggestValueCount', { count: count.toLocaleString() }), insert: inList ? valueText(value, true) : `${valueText(value, false)} ` }));
}

/**
 * The suggestions for the text before the caret: field names (matching key or title) where a condition may start,
 * the operators fitting a field's type right after it, and a request for values where a value is written. Text that
 * does not tokenize (an open quote) gets none.
 * Before: `OS.Type = Linux AND Host`; after: Hostname, from 20. Before: `LastSeen `; after: last, >, >=, <, <=, exists.
 */
export function querySuggestions(before: string, fields: SuggestedField[]): Suggestions {
  const partial = /[^\s()"=!<>[\],]*$/.exec(before)?.[0] ?? '';
  const from = before.length - partial.length;
  let prior: Token[];
  try {
    prior = tokenize(before.slice(0, from)).filter((token) => token.type !== 'end');
  } catch {
    return { from, items: [] };
  }
  const previous = prior.at(-1);
  const typed = partial.toLowerCase();
  const valueField = valueFieldOf(prior, fields);
  if (valueField) return { from, items: [], values: { field: valueField, search: partial, inList: previous?.type === 'list-open' || previous?.type === 'comma' } };
  if (startsCondition(previous)) {
    const items = fields
      .filter((field) => field.value.toLowerCase().includes(typed) || field.label.toLowerCase().includes(typed))
      .sort((a, b) => Number(!a.value.toLowerCase().startsWith(typed)) - Number(!b.value.toLowerCase().startsWith(typed)))
      .map((field) => ({ label: field.label, detail: field.value, insert: `${field.value} ` }));
    // A partial word that is already a whole field name needs no list: the user is past it.
    return { from, items: items.length === 1 && items[0].detail === partial ? [] : items.slice(0, 12) };
  }
  const field = previous?.type === 'word' && (prior.length === 1 || startsCondition(prior.at(-2))) ? fields.find((candidate) => candidate.value === previous.text) : undefined;
  if (!field || before.slice(0, from) === before.slice(0, from).trimEnd()) return { from, items: [] };
  const items = operatorsByType[field.type ?? 'text']
    .filter((choice) => choice.operator.startsWith(typed))
    .map((choice) => ({ label: choice.operator, detail: choice.detail(), insert: choice.insert }));
  return { from, items };
}
