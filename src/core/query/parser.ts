import { QuerySyntaxError, type DateMath, type DateUnit, type QueryNode, type QueryValue } from './ast.js';
import { tokenize, type Token } from './lexer.js';

const fieldPattern = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const numberPattern = /^-?\d+(\.\d+)?$/;
const dateMathPattern = /^now(?:([+-])(\d+)([yMwdhms]))?(?:\/([yMwdhms]))?$/;

const isKeyword = (token: Token, keyword: string) => token.type === 'word' && token.text.toUpperCase() === keyword;

/** The operators a condition may use after its field, as the errors and the query bar's help name them. */
export const operatorNames = '=, !=, >, >=, <, <=, in, contains, exists, last';
const conditionKeywords = ['LAST', 'EXISTS', 'IN', 'CONTAINS'];

/** Whether the token after a word makes that word a field name (`Hostname =`, `Tags in [`) rather than text to search. */
const startsCondition = (token: Token) => token.type === 'operator' || conditionKeywords.some((keyword) => isKeyword(token, keyword));

/** Reads `now-15d/d` into date math; anything else is an error at that token. */
function parseDateMath(token: Token): DateMath {
  const match = token.type === 'word' ? dateMathPattern.exec(token.text) : null;
  if (!match) throw new QuerySyntaxError('Expected a date like now-15d/d after "last"', token.position);
  const [, sign, amount, unit, roundTo] = match;
  return {
    offset: amount ? { amount: Number(amount) * (sign === '-' ? -1 : 1), unit: unit as DateUnit } : null,
    roundTo: (roundTo as DateUnit | undefined) ?? null,
  };
}

/**
 * Parses query text into its syntax tree; NOT binds tighter than AND, AND tighter than OR. A word or quoted text
 * standing alone is text to search for.
 * Before: `OS.Type = Windows AND NOT Groups = edr`;
 * after: `{kind: 'and', left: {comparison OS.Type = Windows}, right: {kind: 'not', operand: {comparison Groups = edr}}}`.
 */
export function parseQuery(text: string): QueryNode {
  const tokens = tokenize(text);
  let index = 0;
  const peek = () => tokens[index];
  const next = () => tokens[index++];

  const parseValue = (): QueryValue => {
    const token = next();
    if (token.type === 'string') return { kind: 'text', text: token.text, quoted: true };
    if (token.type === 'regex') {
      try {
        new RegExp(token.pattern, token.flags);
      } catch {
        throw new QuerySyntaxError('Invalid regular expression', token.position);
      }
      return { kind: 'regex', pattern: token.pattern, flags: token.flags };
    }
    if (token.type === 'word') return numberPattern.test(token.text) ? { kind: 'number', value: Number(token.text) } : { kind: 'text', text: token.text, quoted: false };
    throw new QuerySyntaxError('Expected a value', token.position);
  };

  /** `[a, "b c", 3]` after `in`: at least one value, each as `=` reads it (no regular expressions). */
  const parseList = (field: string): QueryNode => {
    const opening = next();
    if (opening.type !== 'list-open') throw new QuerySyntaxError(`Expected a list like [a, b] after "${field} in"`, opening.position);
    const values: QueryValue[] = [];
    for (;;) {
      if (peek().type !== 'word' && peek().type !== 'string') throw new QuerySyntaxError('Expected a value', peek().position);
      values.push(parseValue());
      const separator = next();
      if (separator.type === 'list-close') return { kind: 'in', field, values };
      if (separator.type !== 'comma') throw new QuerySyntaxError('Expected "," or "]"', separator.position);
    }
  };

  const parsePrimary = (): QueryNode => {
    const token = next();
    if (token.type === 'open') {
      const inner = parseOr();
      const closing = next();
      if (closing.type !== 'close') throw new QuerySyntaxError('Expected ")"', closing.position);
      return inner;
    }
    if (isKeyword(token, 'QUERY') && isKeyword(peek(), 'IS')) {
      next();
      const id = next();
      if (id.type !== 'word' || !/^\d+$/.test(id.text)) throw new QuerySyntaxError('Expected a saved query id after "Query is"', id.position);
      return { kind: 'saved-query', id: Number(id.text) };
    }
    // Text alone, not followed by an operator, is searched for: `lt-0017`, `"web server"`.
    if (token.type === 'string') return { kind: 'free-text', text: token.text, quoted: true };
    if (token.type === 'word' && !startsCondition(peek())) {
      if (['AND', 'OR'].includes(token.text.toUpperCase())) throw new QuerySyntaxError(`Expected a condition or text to search before "${token.text}"`, token.position);
      return { kind: 'free-text', text: token.text, quoted: false };
    }
    if (token.type !== 'word' || !fieldPattern.test(token.text)) throw new QuerySyntaxError('Expected a field name', token.position);
    const field = token.text;
    const operator = next();
    if (isKeyword(operator, 'LAST')) return { kind: 'last', field, since: parseDateMath(next()) };
    if (isKeyword(operator, 'EXISTS')) return { kind: 'exists', field };
    if (isKeyword(operator, 'IN')) return parseList(field);
    if (isKeyword(operator, 'CONTAINS')) {
      const value = peek().type === 'word' || peek().type === 'string' ? next() : null;
      if (!value || value.type !== 'word' && value.type !== 'string') throw new QuerySyntaxError(`Expected text after "${field} contains"`, peek().position);
      return { kind: 'contains', field, text: value.text };
    }
    if (operator.type !== 'operator') throw new QuerySyntaxError(`Expected an operator (${operatorNames}) after "${field}"`, operator.position);
    if (peek().type === 'word' && (peek() as { text: string }).text === '*' && (operator.text === '=' || operator.text === '!=')) {
      next();
      return operator.text === '=' ? { kind: 'exists', field } : { kind: 'not', operand: { kind: 'exists', field } };
    }
    return { kind: 'comparison', field, operator: operator.text, value: parseValue() };
  };

  const parseUnary = (): QueryNode => {
    if (isKeyword(peek(), 'NOT')) {
      next();
      return { kind: 'not', operand: parseUnary() };
    }
    return parsePrimary();
  };

  const parseAnd = (): QueryNode => {
    let node = parseUnary();
    while (isKeyword(peek(), 'AND')) {
      next();
      node = { kind: 'and', left: node, right: parseUnary() };
    }
    return node;
  };

  function parseOr(): QueryNode {
    let node = parseAnd();
    while (isKeyword(peek(), 'OR')) {
      next();
      node = { kind: 'or', left: node, right: parseAnd() };
    }
    return node;
  }

  if (peek().type === 'end') throw new QuerySyntaxError('The query is empty', 0);
  const tree = parseOr();
  const rest = peek();
  if (rest.type === 'close') throw new QuerySyntaxError('Unexpected ")"', rest.position);
  // Two words in a row are most often a phrase typed without its quotes: say how to search for it.
  if (rest.type !== 'end') throw new QuerySyntaxError(`Expected AND or OR (to search for a phrase, put it in quotes: "lt-0017 dell")`, rest.position);
  return tree;
}
