export type Row = Record<string, unknown>;

/** Something SQL can be sent to: the database itself, or one connection inside a transaction. */
export interface Queryable {
  /** One parameterized statement; `$1, $2, ...` placeholders, never string-built SQL. */
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements without parameters (migration scripts); answers the rows of the last one. */
  exec(script: string): Promise<Row[]>;
  /**
   * Appends rows to a table with COPY (src/server/db/copyText.ts tells how values are written): for the bulk writes
   * of a discovery, where it costs a fraction of an insert of the same rows.
   */
  copyRows(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
}

export type DatabaseEngine = 'pglite' | 'postgresql';

export interface Database extends Queryable {
  readonly engine: DatabaseEngine;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (connection: Queryable) => Promise<T>): Promise<T>;
  /** Runs `work` on one dedicated connection (session-level locks need one). */
  session<T>(work: (connection: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
