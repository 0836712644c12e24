/** A value on the right of a comparison: text (optionally with `*` wildcards), a /regex/, or a number. */
export type QueryValue =
  | { kind: 'text'; text: string; quoted: boolean }
  | { kind: 'regex'; pattern: string; flags: string }
  | { kind: 'number'; value: number };

export type ComparisonOperator = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** Date math as users write it: `now-15d/d` = fifteen days ago, rounded down to the day. */
export type DateMath = { offset: { amount: number; unit: DateUnit } | null; roundTo: DateUnit | null };
export type DateUnit = 'y' | 'M' | 'w' | 'd' | 'h' | 'm' | 's';

export type QueryNode =
  | { kind: 'and'; left: QueryNode; right: QueryNode }
  | { kind: 'or'; left: QueryNode; right: QueryNode }
  | { kind: 'not'; operand: QueryNode }
  | { kind: 'comparison'; field: string; operator: ComparisonOperator; value: QueryValue }
  /** `Field = *`: the field has any value. */
  | { kind: 'exists'; field: string }
  /** `LastSeen last now-15d/d`: the date is at or after that moment. */
  | { kind: 'last'; field: string; since: DateMath }
  /** `Query is 12`: the saved query with that id. */
  | { kind: 'saved-query'; id: number }
  /** `Hostname in [a, b]`: the field equals one of the values (each as `=` reads it, subnets included). */
  | { kind: 'in'; field: string; values: QueryValue[] }
  /** `Hostname contains web`: some value holds the text, ignoring case (`= *web*` without writing the stars). */
  | { kind: 'contains'; field: string; text: string }
  /** `lt-0017` or `"web server"` alone: the text appears in one of the inventory's search fields (`x-search`). */
  | { kind: 'free-text'; text: string; quoted: boolean };

/** A syntax error with the character offset where it was found, so the query bar can point at it. */
export class QuerySyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} (at character ${position + 1})`);
    this.name = 'QuerySyntaxError';
  }
}
