import { QuerySyntaxError } from './ast.js';

export type Token =
  | { type: 'word'; text: string; position: number }
  | { type: 'string'; text: string; position: number }
  | { type: 'regex'; pattern: string; flags: string; position: number }
  | { type: 'operator'; text: '=' | '!=' | '>' | '>=' | '<' | '<='; position: number }
  | { type: 'open' | 'close' | 'end'; position: number };

const wordCharacter = /[^\s()"=!<>]/;

function readQuoted(text: string, start: number, quote: string): { value: string; end: number } {
  let value = '';
  for (let position = start + 1; position < text.length; position += 1) {
    const character = text[position];
    if (character === '\\' && position + 1 < text.length) {
      // In a regular expression only "\/" is ours to unescape; "\d" and friends belong to the pattern.
      value += quote === '/' && text[position + 1] !== '/' ? `\\${text[position + 1]}` : text[position + 1];
      position += 1;
    } else if (character === quote) {
      return { value, end: position + 1 };
    } else {
      value += character;
    }
  }
  throw new QuerySyntaxError(quote === '/' ? 'Unterminated regular expression' : 'Unterminated quoted text', start);
}

/** Splits query text into tokens: words, "quoted text", /regex/flags, comparison operators and parentheses. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < text.length) {
    const character = text[position];
    if (/\s/.test(character)) {
      position += 1;
    } else if (character === '(' || character === ')') {
      tokens.push({ type: character === '(' ? 'open' : 'close', position });
      position += 1;
    } else if (character === '"' || character === "'") {
      const { value, end } = readQuoted(text, position, character);
      tokens.push({ type: 'string', text: value, position });
      position = end;
    } else if (character === '/' && tokens.at(-1)?.type === 'operator') {
      const { value, end } = readQuoted(text, position, '/');
      const flags = /^[i]*/.exec(text.slice(end))![0];
      tokens.push({ type: 'regex', pattern: value, flags, position });
      position = end + flags.length;
    } else if ('=!<>'.includes(character)) {
      const twoCharacters = text.slice(position, position + 2);
      const operator = ['!=', '>=', '<='].includes(twoCharacters) ? twoCharacters : character;
      if (operator === '!') throw new QuerySyntaxError('Expected "!=" after "!"', position);
      tokens.push({ type: 'operator', text: operator as '=', position });
      position += operator.length;
    } else {
      const start = position;
      while (position < text.length && wordCharacter.test(text[position])) position += 1;
      tokens.push({ type: 'word', text: text.slice(start, position), position: start });
    }
  }
  tokens.push({ type: 'end', position: text.length });
  return tokens;
}
