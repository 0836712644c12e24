// A small, safe template interpreter for manifests: `{{ expression }}` parts, parsed by hand and evaluated over plain
// data. No eval / new Function; property access only reaches own properties of plain objects and arrays.
import { filters } from './templateFilters.js';
import { Parser, TemplateError, tokenize, type Node } from './templateParser.js';

export { TemplateError };

export type Scope = Record<string, unknown>;

const maximumTemplateLength = 4000;
const maximumTextLength = 1_000_000;
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** Reads `key` of `target` when it is an own property of plain data; anything else is undefined. */
export function member(target: unknown, key: unknown): unknown {
  if (target === null || typeof target !== 'object') return typeof target === 'string' && key === 'length' ? target.length : undefined;
  if (Array.isArray(target)) {
    if (typeof key === 'number' || (typeof key === 'string' && /^-?\d+$/.test(key))) {
      const index = Number(key);
      return target[index < 0 ? target.length + index : index];
    }
    return key === 'length' ? target.length : undefined;
  }
  const name = typeof key === 'string' ? key : String(key);
  return forbiddenKeys.has(name) ? undefined : ownValue(target, name);
}

function isPlainObject(target: unknown): target is Record<string, unknown> {
  if (target === null || typeof target !== 'object') return false;
  const prototype = Object.getPrototypeOf(target);
  return prototype === Object.prototype || prototype === null;
}

/** `target[key]` for a fixed, allowed, non-index key: only own properties of plain objects. */
function ownValue(target: unknown, key: string): unknown {
  return isPlainObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
}

/** The truthiness manifests use: false, null, undefined, "", 0, "false", "0" and [] are false. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value === 'false' || value === '0') return false;
  return Boolean(value);
}

function compare(operator: string, left: unknown, right: unknown): boolean {
  if (operator === '==') return left === right || (left !== null && right !== null && left !== undefined && right !== undefined && String(left) === String(right));
  if (operator === '!=') return !compare('==', left, right);
  const [a, b] = typeof left === 'number' || typeof right === 'number' ? [Number(left), Number(right)] : [String(left), String(right)];
  if (operator === '<') return a < b;
  if (operator === '<=') return a <= b;
  if (operator === '>') return a > b;
  return a >= b;
}

type Evaluator = (scope: Scope) => unknown;
type FixedName = { kind: 'literal'; value: string };

/** A key known when compiling that names a property: not an index and not `length` (both handled by `member`). */
function isFixedName(key: Node): key is FixedName {
  return key.kind === 'literal' && typeof key.value === 'string' && !/^-?\d+$/.test(key.value) && key.value !== 'length';
}

/** `name.key1.key2…` with fixed names only (the usual `record.a.b`), as the variable and its keys; else null. */
function fixedPath(node: Node): { name: string; keys: string[] } | null {
  const keys: string[] = [];
  let current = node;
  while (current.kind === 'member') {
    if (!isFixedName(current.key)) return null;
    keys.unshift(current.key.value);
    current = current.target;
  }
  return current.kind === 'variable' ? { name: current.name, keys } : null;
}

/**
 * Whether `key` of a plain object can only be an own property: true unless Object.prototype has such a key
 * (`toString`, `valueOf`…). Decided once per template, so reading the key needs no Object.hasOwn call per record;
 * those calls were a sixth of the instructions of mapping the 100k-record bench.
 */
function onlyOwn(key: string): boolean {
  return !(key in Object.prototype);
}

/** Reads one fixed key of plain objects; a forbidden key is recognised here, once, and reads nothing. */
function fixedKeyReader(key: string): (target: unknown) => unknown {
  if (forbiddenKeys.has(key)) return () => undefined;
  if (onlyOwn(key)) return (target) => (isPlainObject(target) ? target[key] : undefined);
  return (target) => ownValue(target, key);
}

/** A variable: an own property of the scope, which the engine builds (always a plain object). */
function variableReader(name: string): Evaluator {
  if (forbiddenKeys.has(name)) return () => undefined;
  if (onlyOwn(name)) return (scope) => scope[name];
  return (scope) => (Object.hasOwn(scope, name) ? scope[name] : undefined);
}

/**
 * A variable followed by fixed keys, as one closure: the shape of most mapping templates (`record.a.b`), rendered
 * for every record of large fetches. Same checks as `member` for such keys: own properties of plain objects only.
 */
function pathEvaluator(name: string, keys: string[]): Evaluator {
  const variable = variableReader(name);
  const readers = keys.map(fixedKeyReader);
  if (readers.length === 1) {
    const [read] = readers;
    return (scope) => read(variable(scope));
  }
  return (scope) => {
    let value = variable(scope);
    for (let index = 0; index < readers.length && value !== undefined; index += 1) value = readers[index](value);
    return value;
  };
}

/** Turns a parsed expression into nested closures once, so rendering a record does no tree walking or dispatch. */
function toEvaluator(node: Node): Evaluator {
  switch (node.kind) {
    case 'literal': {
      const value = node.value;
      return () => value;
    }
    case 'variable':
      return variableReader(node.name);
    case 'member': {
      if (isFixedName(node.key)) {
        const path = fixedPath(node);
        if (path) return pathEvaluator(path.name, path.keys);
        const read = fixedKeyReader(node.key.value);
        const target = toEvaluator(node.target);
        return (scope) => read(target(scope));
      }
      const target = toEvaluator(node.target);
      if (node.key.kind === 'literal') {
        const key = node.key.value;
        return (scope) => member(target(scope), key);
      }
      const key = toEvaluator(node.key);
      return (scope) => member(target(scope), key(scope));
    }
    case 'list': {
      const items = node.items.map(toEvaluator);
      return (scope) => items.map((item) => item(scope));
    }
    case 'unary': {
      const operand = toEvaluator(node.operand);
      return node.operator === 'not' ? (scope) => !truthy(operand(scope)) : (scope) => -Number(operand(scope));
    }
    case 'filter': {
      const target = toEvaluator(node.target);
      const args = node.args.map(toEvaluator);
      const filter = filters[node.name];
      const failed = (error: unknown) => new TemplateError(`filter ${node.name} failed: ${(error as Error).message}`);
      // Most filters in mappings take no argument (`| mac`, `| date`): no argument list to build per record.
      if (!args.length) return (scope) => {
        const value = target(scope);
        try {
          return filter(value);
        } catch (error) {
          throw failed(error);
        }
      };
      return (scope) => {
        const value = target(scope);
        const values = args.map((arg) => arg(scope));
        try {
          return filter(value, ...values);
        } catch (error) {
          throw failed(error);
        }
      };
    }
    case 'binary': {
      const left = toEvaluator(node.left);
      const right = toEvaluator(node.right);
      const operator = node.operator;
      if (operator === 'and') return (scope) => {
        const value = left(scope);
        return truthy(value) ? right(scope) : value;
      };
      if (operator === 'or') return (scope) => {
        const value = left(scope);
        return truthy(value) ? value : right(scope);
      };
      if (operator === '+') return (scope) => {
        const a = left(scope);
        const b = right(scope);
        if (typeof a === 'number' && typeof b === 'number') return a + b;
        const text = toText(a) + toText(b);
        if (text.length > maximumTextLength) throw new TemplateError('text too long');
        return text;
      };
      if (operator === '-') return (scope) => Number(left(scope)) - Number(right(scope));
      if (operator === '*') return (scope) => Number(left(scope)) * Number(right(scope));
      return (scope) => compare(operator, left(scope), right(scope));
    }
  }
}

/** A value as text inside a larger template: undefined/null are empty, lists join with commas, objects as JSON. */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(toText).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type Part = string | Evaluator;
/** A compiled template: one function of the scope, so rendering a record is a plain call with no dispatch. */
export type Renderer = (scope: Scope) => unknown;
const cache = new Map<string, Renderer>();

/** Literal text and evaluated parts joined as text, bounded in size. */
function textRenderer(parts: Part[]): Renderer {
  return (scope) => {
    let text = '';
    for (const part of parts) {
      text += typeof part === 'string' ? part : toText(part(scope));
      if (text.length > maximumTextLength) throw new TemplateError('rendered text too long');
    }
    return text;
  };
}

/** Parses a template once (cached): literal text and `{{ expression }}` parts. */
export function compileTemplate(template: string): Renderer {
  const cached = cache.get(template);
  if (cached) return cached;
  if (template.length > maximumTemplateLength) throw new TemplateError(`template longer than ${maximumTemplateLength} characters`);
  const parts: Part[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{{', at);
    if (open === -1) {
      parts.push(template.slice(at));
      break;
    }
    if (open > at) parts.push(template.slice(at, open));
    const close = template.indexOf('}}', open + 2);
    if (close === -1) throw new TemplateError(`unclosed {{ in ${JSON.stringify(template.slice(0, 80))}`);
    const source = template.slice(open + 2, close);
    try {
      parts.push(toEvaluator(new Parser(tokenize(source)).parse()));
    } catch (error) {
      throw new TemplateError(`${(error as Error).message} in {{${source}}}`);
    }
    at = close + 2;
  }
  // Exactly one expression yields its value: the renderer is the expression's evaluator itself.
  const compiled = parts.length === 1 && typeof parts[0] !== 'string' ? parts[0] : textRenderer(parts);
  if (cache.size < 10_000) cache.set(template, compiled);
  return compiled;
}

/** Renders a template: exactly one `{{ expression }}` yields its value; anything else yields text. */
export function render(template: string, scope: Scope): unknown {
  return compileTemplate(template)(scope);
}

/** Renders every string inside a JSON value; object keys whose whole-template value is undefined are dropped. */
export function renderDeep(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return render(value, scope);
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, scope));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const rendered = renderDeep(inner, scope);
      // Keys may be templates too (an Elasticsearch sort field from the config), rendered as text.
      const name = key.includes('{{') ? toText(render(key, scope)) : key;
      if (rendered !== undefined && !forbiddenKeys.has(name)) out[name] = rendered;
    }
    return out;
  }
  return value;
}
