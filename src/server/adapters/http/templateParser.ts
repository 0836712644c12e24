// The parser of template expressions: tokens, then a recursive-descent parse into a small syntax tree.
import { filters } from './templateFilters.js';

export type Node =
  | { kind: 'literal'; value: unknown }
  | { kind: 'variable'; name: string }
  | { kind: 'member'; target: Node; key: Node }
  | { kind: 'list'; items: Node[] }
  | { kind: 'unary'; operator: 'not' | '-'; operand: Node }
  | { kind: 'binary'; operator: string; left: Node; right: Node }
  | { kind: 'filter'; name: string; target: Node; args: Node[] };

type Token = { type: 'number' | 'string' | 'name' | 'punct'; value: string; at: number };

const maximumDepth = 32;
const keywords: Record<string, unknown> = { true: true, false: false, null: null, undefined };

/** A template that cannot be parsed or evaluated (a manifest or configuration mistake). */
export class TemplateError extends Error {}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at];
    if (/\s/.test(char)) {
      at += 1;
      continue;
    }
    const rest = source.slice(at);
    const number = /^\d+(\.\d+)?/.exec(rest);
    if (number) {
      tokens.push({ type: 'number', value: number[0], at });
      at += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name) {
      tokens.push({ type: 'name', value: name[0], at });
      at += name[0].length;
      continue;
    }
    if (char === "'" || char === '"') {
      let value = '';
      let index = at + 1;
      while (index < source.length && source[index] !== char) {
        if (source[index] === '\\' && index + 1 < source.length) index += 1;
        value += source[index];
        index += 1;
      }
      if (index >= source.length) throw new TemplateError(`unterminated string at ${at}`);
      tokens.push({ type: 'string', value, at });
      at = index + 1;
      continue;
    }
    const punct = /^(==|!=|<=|>=|[.|()[\],+\-*<>])/.exec(rest);
    if (!punct) throw new TemplateError(`unexpected character ${JSON.stringify(char)} at ${at}`);
    tokens.push({ type: 'punct', value: punct[0], at });
    at += punct[0].length;
  }
  return tokens;
}

/** Recursive-descent parser; `depth` bounds nesting so a hostile template cannot exhaust the stack. */
export class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    const node = this.expression();
    if (this.index < this.tokens.length) throw new TemplateError(`unexpected ${JSON.stringify(this.tokens[this.index].value)}`);
    return node;
  }

  private peek(value?: string): Token | undefined {
    const token = this.tokens[this.index];
    return token && (value === undefined || token.value === value) ? token : undefined;
  }

  private take(value: string): boolean {
    const token = this.tokens[this.index];
    if (token && token.value === value && (token.type === 'punct' || token.type === 'name')) {
      this.index += 1;
      return true;
    }
    return false;
  }

  private expect(value: string): void {
    if (!this.take(value)) throw new TemplateError(`expected ${JSON.stringify(value)}`);
  }

  private nested<T>(work: () => T): T {
    this.depth += 1;
    if (this.depth > maximumDepth) throw new TemplateError('expression nested too deeply');
    try {
      return work();
    } finally {
      this.depth -= 1;
    }
  }

  private expression(): Node {
    return this.nested(() => this.or());
  }

  private or(): Node {
    let left = this.and();
    while (this.take('or')) left = { kind: 'binary', operator: 'or', left, right: this.and() };
    return left;
  }

  private and(): Node {
    let left = this.not();
    while (this.take('and')) left = { kind: 'binary', operator: 'and', left, right: this.not() };
    return left;
  }

  private not(): Node {
    if (this.take('not')) return this.nested(() => ({ kind: 'unary', operator: 'not', operand: this.not() }));
    return this.comparison();
  }

  private comparison(): Node {
    const left = this.additive();
    const token = this.peek();
    if (token?.type === 'punct' && ['==', '!=', '<', '<=', '>', '>='].includes(token.value)) {
      this.index += 1;
      return { kind: 'binary', operator: token.value, left, right: this.additive() };
    }
    return left;
  }

  private additive(): Node {
    let left = this.multiplicative();
    for (let token = this.peek(); token?.type === 'punct' && (token.value === '+' || token.value === '-'); token = this.peek()) {
      this.index += 1;
      left = { kind: 'binary', operator: token.value, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): Node {
    let left = this.unary();
    while (this.peek('*')?.type === 'punct') {
      this.index += 1;
      left = { kind: 'binary', operator: '*', left, right: this.unary() };
    }
    return left;
  }

  private unary(): Node {
    if (this.peek('-')?.type === 'punct') {
      this.index += 1;
      return this.nested(() => ({ kind: 'unary', operator: '-', operand: this.unary() }));
    }
    return this.filtered();
  }

  private filtered(): Node {
    let target = this.postfix();
    while (this.peek('|')?.type === 'punct') {
      this.index += 1;
      const name = this.tokens[this.index];
      if (name?.type !== 'name') throw new TemplateError('expected a filter name after |');
      this.index += 1;
      if (!Object.hasOwn(filters, name.value)) throw new TemplateError(`unknown filter ${name.value}`);
      const args: Node[] = [];
      if (this.take('(')) {
        if (!this.take(')')) {
          do args.push(this.expression());
          while (this.take(','));
          this.expect(')');
        }
      }
      target = { kind: 'filter', name: name.value, target, args };
    }
    return target;
  }

  private postfix(): Node {
    let target = this.primary();
    for (;;) {
      if (this.peek('.')?.type === 'punct') {
        this.index += 1;
        const name = this.tokens[this.index];
        if (!name || (name.type !== 'name' && name.type !== 'number')) throw new TemplateError('expected a name after .');
        this.index += 1;
        target = { kind: 'member', target, key: { kind: 'literal', value: name.value } };
      } else if (this.peek('[')?.type === 'punct') {
        this.index += 1;
        const key = this.expression();
        this.expect(']');
        target = { kind: 'member', target, key };
      } else return target;
    }
  }

  private primary(): Node {
    const token = this.tokens[this.index];
    if (!token) throw new TemplateError('unexpected end of expression');
    this.index += 1;
    if (token.type === 'number') return { kind: 'literal', value: Number(token.value) };
    if (token.type === 'string') return { kind: 'literal', value: token.value };
    if (token.type === 'name') return Object.hasOwn(keywords, token.value) ? { kind: 'literal', value: keywords[token.value] } : { kind: 'variable', name: token.value };
    if (token.value === '(') {
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    if (token.value === '[') {
      const items: Node[] = [];
      if (!this.take(']')) {
        do items.push(this.expression());
        while (this.take(','));
        this.expect(']');
      }
      return { kind: 'list', items };
    }
    throw new TemplateError(`unexpected ${JSON.stringify(token.value)}`);
  }
}
