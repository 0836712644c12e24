import { QuerySyntaxError } from './ast.js';

export type Token =
  | { type: 'word'; text: string; position: number }
  | { type: 'string'; text: string; position: number }
  | { type: 'regex'; pattern: string; flags: string; position: number }
  | { type: 'operator'; text: '=' | '!=' | '>' | '>=' | '<' | '<='; position: number }
  | { type: 'open' | 'close' | 'list-open' | 'list-close' | 'comma' | 'end'; position: number };

const wordCharacter = /[^\s()"=!<>]/;
// Inside `in [...]` a comma or a closing bracket ends a value; elsewhere both stay part of words, so values written
// before lists existed (`Tags = a,b`) read as they always did.
const listWordCharacter = /[^\s()"=!<>,\]]/;

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

/** Splits query text into tokens: words, "quoted text", /regex/flags, comparison operators, parentheses and `in [a, b]` lists. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  let inList = false;
  while (position < text.length) {
    const character = text[position];
    const previous = tokens.at(-1);
    if (/\s/.test(character)) {
      position += 1;
    } else if (character === '(' || character === ')') {
      tokens.push({ type: character === '(' ? 'open' : 'close', position });
      position += 1;
    } else if (character === '[' && previous?.type === 'word' && previous.text.toUpperCase() === 'IN') {
      tokens.push({ type: 'list-open', position });
      inList = true;
      position += 1;
    } else if (inList && (character === ',' || character === ']')) {
      tokens.push({ type: character === ',' ? 'comma' : 'list-close', position });
      inList = character === ',';
      position += 1;
    } else if (character === '"' || character === "'") {
      const { value, end } = readQuoted(text, position, character);
      tokens.push({ type: 'string', text: value, position });
      position = end;
    } else if (character === '/' && previous?.type === 'operator') {
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
      const pattern = inList ? listWordCharacter : wordCharacter;
      while (position < text.length && pattern.test(text[position])) position += 1;
      tokens.push({ type: 'word', text: text.slice(start, position), position: start });
    }
  }
  tokens.push({ type: 'end', position: text.length });
  return tokens;
}
