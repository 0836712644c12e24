// PostgreSQL's COPY text format (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format"): a line a
// row, tab-separated columns, \N for null, backslash escapes for backslash, tab, newline and carriage return. Both
// engines read it (PostgreSQL from the connection, PGlite from a blob), and it spares the database the parsing of a
// JSON batch: appending a thousand finding rows this way costs a third of `insert ... json_to_recordset`.

const identifier = /^[a-z_][a-z0-9_]*$/;

/** The COPY statement for rows of `columns` appended to `table`; both are the code's own names, checked anyway. */
export function copyStatement(table: string, columns: readonly string[], source: 'stdin' | "'/dev/blob'"): string {
  for (const name of [table, ...columns]) if (!identifier.test(name)) throw new Error(`Not a plain SQL name: ${name}`);
  return `copy ${table} (${columns.join(', ')}) from ${source}`;
}

// A text value can hold no NUL character in PostgreSQL: it is left out rather than failing the whole batch. (Most
// values have nothing to escape: testing first spares them the replacing, which a discovery's millions of rows feel.)
const escaped = /[\\\t\n\r\0]/;
const escapeText = (text: string) => (escaped.test(text) ? text.replace(/[\\\t\n\r\0]/g, (character) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '' })[character]!) : text);

/** An array literal (`{"a","b"}`) of a text array column: every element quoted, null elements NULL. */
function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((value) => (value === null || value === undefined ? 'NULL' : `"${String(value).replace(/[\\"]/g, (character) => `\\${character}`)}"`)).join(',')}}`;
}

/** A value of a json/jsonb column, whatever its shape (an array among them, which would otherwise be a text[]). */
export class CopyJson {
  constructor(readonly value: unknown) {}
}

// JSON's escaped NUL (\u0000) is refused by jsonb, as a NUL is by text: left out the same way.
const jsonText = (value: unknown) => {
  const json = JSON.stringify(value);
  return escapeText(json.includes('\\u0000') ? json.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1') : json);
};

/**
 * One value as a COPY column: null and undefined are NULL, arrays are array literals (text[] columns), `CopyJson`
 * and other objects JSON (json/jsonb columns), the rest their text.
 */
export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return escapeText(arrayLiteral(value));
  if (value instanceof CopyJson) return jsonText(value.value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return jsonText(value);
  return escapeText(String(value));
}

/** Rows as COPY text, each row's values in the order of the statement's columns. */
export function copyText(rows: readonly (readonly unknown[])[]): string {
  let text = '';
  for (const row of rows) text += `${row.map(copyValue).join('\t')}\n`;
  return text;
}
