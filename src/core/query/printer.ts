import type { DateMath, QueryNode, QueryValue } from './ast.js';

const bareText = /^[^\s()"'=!<>/]+$/;
const keywords = new Set(['AND', 'OR', 'NOT', 'LAST', 'QUERY', 'IS']);

function printValue(value: QueryValue): string {
  if (value.kind === 'number') return String(value.value);
  if (value.kind === 'regex') return `/${value.pattern.replace(/\//g, '\\/')}/${value.flags}`;
  const needsQuotes = value.quoted || !bareText.test(value.text) || keywords.has(value.text.toUpperCase()) || /^-?\d+(\.\d+)?$/.test(value.text);
  return needsQuotes ? `"${value.text.replace(/[\\"]/g, (character) => `\\${character}`)}"` : value.text;
}

function printDateMath({ offset, roundTo }: DateMath): string {
  return `now${offset ? `${offset.amount < 0 ? '-' : '+'}${Math.abs(offset.amount)}${offset.unit}` : ''}${roundTo ? `/${roundTo}` : ''}`;
}

const precedence = (node: QueryNode) => (node.kind === 'or' ? 1 : node.kind === 'and' ? 2 : 3);

/** Prints a syntax tree back to canonical query text; `parseQuery(printQuery(tree))` gives the same tree. */
export function printQuery(node: QueryNode): string {
  const child = (inner: QueryNode, minimum: number) => (precedence(inner) < minimum ? `(${printQuery(inner)})` : printQuery(inner));
  switch (node.kind) {
    case 'or':
      return `${child(node.left, 1)} OR ${child(node.right, 2)}`;
    case 'and':
      return `${child(node.left, 2)} AND ${child(node.right, 3)}`;
    case 'not':
      return `NOT ${child(node.operand, 3)}`;
    case 'exists':
      return `${node.field} = *`;
    case 'last':
      return `${node.field} last ${printDateMath(node.since)}`;
    case 'saved-query':
      return `Query is ${node.id}`;
    case 'comparison':
      return `${node.field} ${node.operator} ${printValue(node.value)}`;
  }
}
