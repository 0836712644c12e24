import type { Queryable } from './database.js';

/**
 * Runs `work` with PostgreSQL's JIT off for the rest of the transaction `connection` is in, then puts the setting
 * back. Publish statements are planned for tens of thousands of rows and run once: compiling them to machine code
 * cost more than it saved (seconds for one update over a snapshot's devices). PGlite has no JIT: nothing to set.
 */
export async function withoutJit<T>(connection: Queryable, work: () => Promise<T>): Promise<T> {
  const [{ jit }] = await connection.query<{ jit: string | null }>("select current_setting('jit', true) as jit");
  if (jit !== null) await connection.query("select set_config('jit', 'off', true)");
  const result = await work();
  if (jit !== null) await connection.query("select set_config('jit', $1, true)", [jit]);
  return result;
}
