import { t } from '../../app/i18n/messages';
import { parseQuery, printQuery, printValue, QuerySyntaxError, type ComparisonOperator, type QueryNode } from '../../../core/query';

export type BuilderOperator = ComparisonOperator | 'exists' | 'last' | 'not exists' | 'in' | 'contains' | 'search';
/**
 * One line of the query builder: `field operator value`. `in` takes its list's values as written between the
 * brackets (`10.1.0.0/16, 192.168.1.0/24`); `search` is free text over the inventory's search fields, without a field.
 */
export type BuilderCondition = { field: string; operator: BuilderOperator; value: string };
export type BuilderConnective = 'and' | 'or';
export type BuilderModel = { connective: BuilderConnective; conditions: BuilderCondition[] };

export const builderOperators: { value: BuilderOperator; label: string; takesValue: boolean }[] = [
  { value: '=', get label() { return t('inventories.equalsWildcardsRegex'); }, takesValue: true },
  { value: '!=', get label() { return t('inventories.doesNotEqual'); }, takesValue: true },
  { value: '>', get label() { return t('inventories.greaterThan'); }, takesValue: true },
  { value: '>=', get label() { return t('inventories.atLeast'); }, takesValue: true },
  { value: '<', get label() { return t('inventories.lessThan'); }, takesValue: true },
  { value: '<=', get label() { return t('inventories.atMost'); }, takesValue: true },
  { value: 'in', get label() { return t('inventories.isOneOfCommas'); }, takesValue: true },
  { value: 'contains', get label() { return t('inventories.containsText'); }, takesValue: true },
  { value: 'search', get label() { return t('inventories.freeTextAnyField'); }, takesValue: true },
  { value: 'last', get label() { return t('inventories.withinLastNow15d'); }, takesValue: true },
  { value: 'exists', get label() { return t('inventories.hasAValue'); }, takesValue: false },
  { value: 'not exists', get label() { return t('inventories.hasNoValue'); }, takesValue: false },
];

function conditionOf(node: QueryNode): BuilderCondition | null {
  if (node.kind === 'free-text') return { field: '', operator: 'search', value: printQuery(node) };
  if (node.kind === 'in') return { field: node.field, operator: 'in', value: node.values.map((value) => printValue(value, true)).join(', ') };
  if (node.kind === 'contains') return { field: node.field, operator: 'contains', value: printValue({ kind: 'text', text: node.text, quoted: false }) };
  if (node.kind === 'exists') return { field: node.field, operator: 'exists', value: '' };
  if (node.kind === 'not' && node.operand.kind === 'exists') return { field: node.operand.field, operator: 'not exists', value: '' };
  if (node.kind === 'last' || node.kind === 'comparison') {
    const text = printQuery(node);
    const value = text.slice(text.indexOf(node.kind === 'last' ? ' last ' : ` ${node.operator} `) + (node.kind === 'last' ? 6 : node.operator.length + 2));
    return { field: node.field, operator: node.kind === 'last' ? 'last' : node.operator, value };
  }
  return null;
}

function flatten(node: QueryNode, connective: BuilderConnective): QueryNode[] {
  return node.kind === connective ? [...flatten(node.left, connective), ...flatten(node.right, connective)] : [node];
}

/**
 * The builder's view of query text, or null when the text is more than one AND- or OR-chain of simple conditions
 * (the builder then leaves it to the text bar). `A = 1 AND B = *` → and [A = 1, B exists].
 */
export function builderModelOf(text: string): BuilderModel | null {
  if (!text.trim()) return { connective: 'and', conditions: [] };
  let tree: QueryNode;
  try {
    tree = parseQuery(text);
  } catch (error) {
    if (error instanceof QuerySyntaxError) return null;
    throw error;
  }
  const connective: BuilderConnective = tree.kind === 'or' ? 'or' : 'and';
  const conditions = flatten(tree, connective).map(conditionOf);
  return conditions.every((condition): condition is BuilderCondition => condition !== null) ? { connective, conditions } : null;
}

/** One condition as query text; the parser checks it, so a bad value is reported on its own line. */
export function conditionText({ field, operator, value }: BuilderCondition): string {
  // Free text typed with spaces is a phrase: quoted unless the person quoted it already.
  if (operator === 'search') return /^\s*["']/.test(value) ? value : printQuery({ kind: 'free-text', text: value.trim(), quoted: false });
  if (operator === 'in') return `${field} in [${value}]`;
  if (operator === 'exists') return `${field} = *`;
  if (operator === 'not exists') return `NOT ${field} = *`;
  return `${field} ${operator} ${value}`;
}

/** Query text of a builder model, printed canonically; throws QuerySyntaxError for a condition that does not parse. */
export function builderText(model: BuilderModel): string {
  const complete = model.conditions.filter((condition) => (condition.field || condition.operator === 'search') && (condition.value.trim() || condition.operator === 'exists' || condition.operator === 'not exists'));
  if (!complete.length) return '';
  const nodes = complete.map((condition) => parseQuery(conditionText(condition)));
  return printQuery(nodes.reduce((left, right) => ({ kind: model.connective, left, right })));
}

/** The syntax error of query text with its position, or null when it parses. */
export function querySyntaxError(text: string): { message: string; position: number } | null {
  if (!text.trim()) return null;
  try {
    parseQuery(text);
    return null;
  } catch (error) {
    if (error instanceof QuerySyntaxError) return { message: error.message, position: error.position };
    throw error;
  }
}
