/** A query refused before it reaches the database: the message tells the user why. */
export class QueryRejected extends Error {}

export type QueryDialect = 'postgresql' | 'mysql' | 'sqlserver';

/**
 * The query with comments and quoted text (strings, quoted identifiers, PostgreSQL dollar quotes, SQL Server's
 * [bracketed] names) blanked out, so keywords and semicolons can be looked for without being fooled by `'a;b'` or `-- DELETE`.
 */
export function blankQuotedText(sql: string, dialect: QueryDialect): string {
  let out = '';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index];
    const next = sql[index + 1];
    if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', index);
      index = end < 0 ? sql.length : end;
      out += ' ';
    } else if (char === '#' && dialect === 'mysql') {
      // MySQL's line comment (in PostgreSQL `#` is the XOR operator).
      const end = sql.indexOf('\n', index);
      index = end < 0 ? sql.length : end;
      out += ' ';
    } else if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', index + 2);
      if (end < 0) throw new QueryRejected('The query has a comment that is never closed (/* without */).');
      index = end + 2;
      out += ' ';
    } else if (char === "'" || char === '"' || char === '`') {
      let end = index + 1;
      for (;;) {
        end = sql.indexOf(char, end);
        if (end < 0) throw new QueryRejected(`The query has a quote (${char}) that is never closed.`);
        if (sql[end + 1] === char) end += 2;
        else if (char === "'" && dialect === 'mysql' && sql[end - 1] === '\\' && sql[end - 2] !== '\\') end += 1;
        else break;
      }
      index = end + 1;
      out += ' x ';
    } else if (char === '[' && dialect === 'sqlserver') {
      // A bracketed name ends at the first `]` that is not doubled (`[a]]b]` is the name a]b).
      let end = index + 1;
      for (;;) {
        end = sql.indexOf(']', end);
        if (end < 0) throw new QueryRejected('The query has a bracket ([) that is never closed.');
        if (sql[end + 1] === ']') end += 2;
        else break;
      }
      index = end + 1;
      out += ' x ';
    } else if (char === '$' && dialect === 'postgresql' && /^\$[A-Za-z_]*\$/.test(sql.slice(index))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(index))![0];
      const end = sql.indexOf(tag, index + tag.length);
      if (end < 0) throw new QueryRejected(`The query has a ${tag} quote that is never closed.`);
      index = end + tag.length;
      out += ' x ';
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

const readingStarts = new Set(['select', 'with', 'values', 'table']);
// Reading statements that still write or lock: a file written by the server, a table created, rows locked.
const writingClauses: Array<[RegExp, string]> = [
  [/\binto\s+(outfile|dumpfile)\b/i, 'SELECT … INTO OUTFILE writes a file on the database server'],
  [/\binto\s+(temporary\s+|temp\s+|unlogged\s+)?(table\s+)?[a-z_"`#@]/i, 'SELECT … INTO creates a table or sets variables'],
  [/\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i, 'FOR UPDATE / FOR SHARE locks rows'],
  [/\block\s+in\s+share\s+mode\b/i, 'LOCK IN SHARE MODE locks rows'],
  // SQL Server: table hints that take locks, and functions that read files or reach other servers.
  [/\b(updlock|xlock|tablockx|holdlock)\b/i, 'a locking table hint (UPDLOCK, XLOCK, TABLOCKX, HOLDLOCK) locks rows'],
  [/\b(openrowset|opendatasource|openquery)\s*\(/i, 'OPENROWSET, OPENDATASOURCE and OPENQUERY read files or reach other servers'],
];

/**
 * Checks that a query is one reading statement (SELECT, WITH … SELECT, VALUES or TABLE) and returns it without a
 * trailing semicolon. This is a courtesy that explains mistakes early; the guarantee is the read-only transaction
 * every query runs in (and the read-only login the instructions ask for).
 */
export function readOnlyQuery(sql: string, dialect: QueryDialect): string {
  const trimmed = sql.trim().replace(/;\s*$/, '').trim();
  if (!trimmed) throw new QueryRejected('The query is empty.');
  const bare = blankQuotedText(trimmed, dialect);
  if (bare.includes(';')) throw new QueryRejected('Query rejected: only one statement is accepted (it has a ";" in the middle).');
  const first = /^[\s(]*([A-Za-z]+)/.exec(bare)?.[1]?.toLowerCase() ?? '';
  if (!readingStarts.has(first)) throw new QueryRejected(`Query rejected as not read-only: it starts with ${first.toUpperCase() || 'no keyword'}; only SELECT (or WITH … SELECT) is accepted.`);
  for (const [pattern, reason] of writingClauses) if (pattern.test(bare)) throw new QueryRejected(`Query rejected as not read-only: ${reason}.`);
  return trimmed;
}
