/**
 * A streaming JSON reader that hands out the elements of one array (the records) as they complete, without ever
 * holding the whole document: text is pushed chunk by chunk, values outside the records array are scanned but not
 * built, and one record may not grow beyond a bound. The records array is the top-level array, or the array at a
 * dotted key path (`data.items`); a file of one object per line (JSON Lines) gives each line as a record.
 */

/** A document that is not a list of records, or not JSON at all: the message says which and where. */
export class JsonShapeError extends Error {}

type Role = 'seek' | 'target' | 'build' | 'skip';
type Frame = {
  kind: 'array' | 'object';
  role: Role;
  state: 'first' | 'value' | 'afterValue' | 'key' | 'colon';
  /** The key the next value of an object belongs to. */
  key: string;
  value: unknown[] | Record<string, unknown> | null;
  /** For `seek` frames: how deep in the path this object is, and whether the path's next key was met. */
  depth: number;
  found: boolean;
  /** Keys whose values are lists, for the "set the records path" hint on a root object. */
  listKeys: string[];
};

const numberPattern = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const escapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export class JsonRecordStream {
  /** Records completed by the last `push`, to be taken by the caller. */
  readonly ready: unknown[] = [];
  private readonly stack: Frame[] = [];
  private mode: 'normal' | 'string' | 'escape' | 'unicode' | 'number' | 'literal' = 'normal';
  private token = '';
  private parts: string[] = [];
  private line = 1;
  private offset = 0;
  private recordStart = -1;
  private roots = 0;
  private pendingRoot: { value: Record<string, unknown>; listKeys: string[] } | null = null;
  private rootDone = false;
  private targetSeen = false;
  private jsonLines = false;

  constructor(
    private readonly path: string[],
    private readonly maximumRecordChars = 16 * 1024 * 1024,
  ) {}

  private fail(message: string): never {
    throw new JsonShapeError(`${message} (line ${this.line})`);
  }

  private get pathName(): string {
    return this.path.join('.');
  }

  push(text: string): void {
    const length = text.length;
    for (let index = 0; index < length; index += 1) {
      const char = text[index];
      switch (this.mode) {
        case 'string': {
          // Copy the run of plain characters at once: strings are most of a document.
          let end = index;
          while (end < length && text[end] !== '"' && text[end] !== '\\' && text[end] !== '\n') end += 1;
          if (end > index) this.parts.push(text.slice(index, end));
          this.offset += end - index;
          if (end === length) return;
          index = end;
          const stop = text[end];
          if (stop === '\n') this.fail('A line break inside a string');
          if (stop === '\\') this.mode = 'escape';
          else {
            this.mode = 'normal';
            const value = this.parts.join('');
            this.parts = [];
            this.onString(value);
          }
          break;
        }
        case 'escape':
          if (char === 'u') {
            this.mode = 'unicode';
            this.token = '';
          } else {
            const replacement = escapes[char];
            if (replacement === undefined) this.fail(`An invalid escape \\${char} in a string`);
            this.parts.push(replacement);
            this.mode = 'string';
          }
          break;
        case 'unicode':
          this.token += char;
          if (this.token.length === 4) {
            if (!/^[0-9a-fA-F]{4}$/.test(this.token)) this.fail(`An invalid escape \\u${this.token} in a string`);
            this.parts.push(String.fromCharCode(Number.parseInt(this.token, 16)));
            this.mode = 'string';
          }
          break;
        case 'number':
        case 'literal':
          if (/[0-9a-zA-Z.+-]/.test(char)) {
            this.token += char;
            if (this.token.length > 64) this.fail('A malformed value');
            break;
          }
          this.endScalar();
          this.normal(char);
          break;
        default:
          this.normal(char);
      }
      this.offset += 1;
      if (this.recordStart >= 0 && this.offset - this.recordStart > this.maximumRecordChars) this.tooLarge();
      if (this.mode === 'string' && this.parts.length > 4096) this.parts = [this.parts.join('')];
    }
  }

  /** Called when the text is complete: fails if the document was cut short or held no records list. */
  end(): void {
    if (this.mode === 'number' || this.mode === 'literal') this.endScalar();
    if (this.mode !== 'normal') this.fail('The file ends inside a string');
    if (this.stack.length) this.fail('The file ends before the JSON is complete (it looks truncated)');
    if (this.roots === 0) throw new JsonShapeError('The file is empty: it holds no JSON.');
    if (this.pendingRoot) {
      const hint = this.pendingRoot.listKeys.length ? ` Keys holding lists: ${this.pendingRoot.listKeys.slice(0, 10).join(', ')}.` : '';
      throw new JsonShapeError(`The JSON file is an object, not a list of records: set the records path to the key that holds the list.${hint}`);
    }
    if (this.path.length && !this.targetSeen) throw new JsonShapeError(`The JSON file has no list at ${this.pathName}.`);
  }

  private tooLarge(): never {
    const root = this.stack[0];
    if (root && root.role === 'build' && this.roots === 1 && !this.path.length) {
      this.fail('The JSON file is one large object, not a list of records: set the records path to the key that holds the list');
    }
    this.fail(`A record is larger than ${Math.round(this.maximumRecordChars / 1048576)} MB: the records path probably points at the wrong list`);
  }

  private normal(char: string): void {
    switch (char) {
      case ' ': case '\t': case '\r':
        return;
      case '\n':
        this.line += 1;
        return;
      case '"':
        this.mode = 'string';
        this.parts = [];
        return;
      case '{': case '[':
        return this.open(char === '{' ? 'object' : 'array');
      case '}': case ']':
        return this.close(char === '}' ? 'object' : 'array');
      case ':': {
        const top = this.stack.at(-1);
        if (!top || top.state !== 'colon') this.fail('An unexpected ":"');
        top.state = 'value';
        return;
      }
      case ',': {
        const top = this.stack.at(-1);
        if (!top || top.state !== 'afterValue') this.fail('An unexpected ","');
        top.state = top.kind === 'object' ? 'key' : 'value';
        return;
      }
      default:
        if (/[-0-9]/.test(char)) this.mode = 'number';
        else if (/[tfn]/.test(char)) this.mode = 'literal';
        else this.fail(`An unexpected character "${char}"`);
        this.token = char;
    }
  }

  private endScalar(): void {
    const text = this.token;
    this.mode = 'normal';
    let value: unknown;
    if (text === 'true') value = true;
    else if (text === 'false') value = false;
    else if (text === 'null') value = null;
    else if (numberPattern.test(text)) value = Number(text);
    else this.fail(`A malformed value "${text.slice(0, 20)}"`);
    this.scalar(value);
  }

  private onString(value: string): void {
    const top = this.stack.at(-1);
    if (top && top.kind === 'object' && (top.state === 'first' || top.state === 'key')) {
      top.key = value;
      top.state = 'colon';
      return;
    }
    this.scalar(value);
  }

  /** The role of a value about to start, from its parent frame; enforces that a value may start here. */
  private roleOfNext(kind: 'array' | 'object' | 'scalar'): { role: Role; depth: number } {
    const parent = this.stack.at(-1);
    if (!parent) {
      if (this.rootDone) {
        // Only JSON Lines may have a second value at the top: one object after another.
        if (this.path.length || kind !== 'object' || !(this.pendingRoot || this.jsonLines)) this.fail('Unexpected content after the end of the JSON');
        if (this.pendingRoot) this.confirmJsonLines();
        return { role: 'build', depth: 0 };
      }
      if (this.path.length) {
        if (kind !== 'object') this.fail(`The JSON file is ${kind === 'array' ? 'a list' : 'a single value'}, but a records path (${this.pathName}) is set: clear it`);
        return { role: 'seek', depth: 0 };
      }
      if (kind === 'array') return { role: 'target', depth: 0 };
      if (kind === 'object') return { role: 'build', depth: 0 };
      this.fail('The JSON file is a single value, not a list of records');
    }
    if (parent.kind === 'array' ? parent.state !== 'first' && parent.state !== 'value' : parent.state !== 'value') this.fail('A value where none may be');
    if (parent.role === 'target' || parent.role === 'build') return { role: 'build', depth: 0 };
    if (parent.role === 'skip') return { role: 'skip', depth: 0 };
    // A seek frame: only the path's next key leads on.
    if (parent.key !== this.path[parent.depth]) return { role: 'skip', depth: 0 };
    parent.found = true;
    const place = this.path.slice(0, parent.depth + 1).join('.');
    if (parent.depth + 1 === this.path.length) {
      if (kind !== 'array') this.fail(`${place} is ${kind === 'object' ? 'an object' : 'a single value'}, not a list of records`);
      return { role: 'target', depth: 0 };
    }
    if (kind !== 'object') this.fail(`${place} is not an object, so ${this.pathName} cannot be found`);
    return { role: 'seek', depth: parent.depth + 1 };
  }

  private confirmJsonLines(): void {
    this.ready.push(this.pendingRoot!.value);
    this.pendingRoot = null;
    this.jsonLines = true;
  }

  private open(kind: 'array' | 'object'): void {
    const { role, depth } = this.roleOfNext(kind);
    if (!this.stack.length) this.roots += 1;
    if (role === 'build' && this.recordStart < 0) this.recordStart = this.offset;
    if (role === 'target') this.targetSeen = true;
    this.stack.push({ kind, role, state: 'first', key: '', value: role === 'build' ? (kind === 'array' ? [] : {}) : null, depth, found: false, listKeys: [] });
  }

  private close(kind: 'array' | 'object'): void {
    const frame = this.stack.at(-1);
    if (!frame || frame.kind !== kind) this.fail(`An unexpected "${kind === 'object' ? '}' : ']'}"`);
    if (frame.state !== 'first' && frame.state !== 'afterValue') this.fail(`An unexpected "${kind === 'object' ? '}' : ']'}" after a "," or key`);
    this.stack.pop();
    if (frame.role === 'seek' && !frame.found) {
      throw new JsonShapeError(`The JSON file has no key "${this.path[frame.depth]}"${frame.depth ? ` under ${this.path.slice(0, frame.depth).join('.')}` : ''}, so ${this.pathName} cannot be found.`);
    }
    this.completed(frame.value, frame);
  }

  private scalar(value: unknown): void {
    const { role } = this.roleOfNext('scalar');
    if (!this.stack.length) this.roots += 1;
    this.completed(role === 'build' ? value : undefined, null);
  }

  /** A value ended: attach it to its parent, hand it out as a record, or (outside records) just step the grammar. */
  private completed(value: unknown, frame: Frame | null): void {
    const parent = this.stack.at(-1);
    if (!parent) {
      this.rootDone = true;
      if (frame?.role === 'build') {
        this.recordStart = -1;
        // One object at the top could be a whole document or the first line of JSON Lines: the next value decides.
        if (this.roots === 1) this.pendingRoot = { value: frame.value as Record<string, unknown>, listKeys: frame.listKeys };
        else this.ready.push(frame.value);
      }
      return;
    }
    if (parent.role === 'target') {
      this.ready.push(value);
      this.recordStart = -1;
    } else if (parent.role === 'build') {
      if (Array.isArray(parent.value)) parent.value.push(value);
      else (parent.value as Record<string, unknown>)[parent.key] = value;
      if (frame?.kind === 'array' && this.stack.length === 1) parent.listKeys.push(parent.key);
    }
    parent.state = 'afterValue';
  }
}
