import type { DateMath, QueryNode, QueryValue } from './ast.js';

// A slash reads as a regular expression only where a value starts, so a subnet (`10.61.0.0/16`) stays bare.
const bareText = /^[^\s()"'=!<>/][^\s()"'=!<>]*$/;
// Inside a list a comma or bracket ends a value.
const bareListText = /^[^\s()"'=!<>/,[\]][^\s()"'=!<>,[\]]*$/;
const keywords = new Set(['AND', 'OR', 'NOT', 'LAST', 'QUERY', 'IS', 'IN', 'CONTAINS', 'EXISTS']);

const quote = (text: string) => `"${text.replace(/[\\"]/g, (character) => `\\${character}`)}"`;

/** A value as query text, quoted only when it must be (a space, an operator, a keyword, a number-like text). */
export function printValue(value: QueryValue, inList = false): string {
  if (value.kind === 'number') return String(value.value);
  if (value.kind === 'regex') return `/${value.pattern.replace(/\//g, '\\/')}/${value.flags}`;
  const needsQuotes = value.quoted || !(inList ? bareListText : bareText).test(value.text) || keywords.has(value.text.toUpperCase()) || /^-?\d+(\.\d+)?$/.test(value.text);
  return needsQuotes ? quote(value.text) : value.text;
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
    case 'in':
      return `${node.field} in [${node.values.map((value) => printValue(value, true)).join(', ')}]`;
    case 'contains':
      return `${node.field} contains ${printValue({ kind: 'text', text: node.text, quoted: false })}`;
    case 'free-text':
      // Quoted when it was, or when bare it would read as something else (a keyword, a field before an operator).
      return node.quoted || !bareText.test(node.text) || keywords.has(node.text.toUpperCase()) ? quote(node.text) : node.text;
  }
}
