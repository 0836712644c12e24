import type { Queryable } from '../db/database.js';
import { DomainError } from '../errors.js';

/**
 * Runs `work` (one profile's or policy's evaluation) so that its failure (a statement timeout, a query a deleted saved
 * query broke) leaves the publish's transaction usable: inside a savepoint, under its own statement timeout. Answers
 * the error's message, or null.
 */
export async function guarded(db: Queryable, timeoutMs: number, work: () => Promise<void>): Promise<string | null> {
  const [{ statement_timeout: previous }] = await db.query<{ statement_timeout: string }>("select current_setting('statement_timeout') as statement_timeout");
  await db.exec(`savepoint security_condition; set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
  try {
    await work();
    await db.exec('release savepoint security_condition');
    await db.query("select set_config('statement_timeout', $1, true)", [previous]);
    return null;
  } catch (error) {
    await db.exec('rollback to savepoint security_condition');
    const message = error instanceof DomainError ? Object.values(error.body).flat().join(' ') : ((error as Error).message ?? String(error));
    return /statement timeout|canceling statement/i.test(message) ? `Timed out after ${timeoutMs} ms: it was not evaluated for this snapshot.` : message.slice(0, 500);
  }
}
