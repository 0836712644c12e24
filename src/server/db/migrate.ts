import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lockKeys, withAdvisoryLock } from './advisoryLock.js';
import { ensureSnapshotIndexColumns } from '../inventory/snapshotIndex.js';
import type { Database } from './database.js';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type Migration = { version: number; name: string; sql: string };

/**
 * The migration scripts, `0001_identity.sql` → version 1, in order. Two scripts of one version (branches merged
 * side by side) are refused here: the second would otherwise never run where the first already has.
 */
export function loadMigrations(folder = migrationsFolder): Migration[] {
  const migrations = readdirSync(folder)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 4)), name: file.replace(/\.sql$/, ''), sql: readFileSync(`${folder}/${file}`, 'utf8') }));
  migrations.forEach((migration, index) => {
    const earlier = migrations[index - 1];
    if (earlier?.version === migration.version) throw new Error(`Migrations ${earlier.name} and ${migration.name} share version ${migration.version}: renumber one`);
  });
  return migrations;
}

/**
 * Applies pending migrations, each in its own transaction, under a session advisory lock so two processes
 * starting together on one PostgreSQL do not race (the second waits, then finds nothing left to do).
 */
export async function migrate(database: Database, migrations = loadMigrations()): Promise<string[]> {
  return withAdvisoryLock(database, lockKeys.migrations, async (connection) => {
    await connection.exec(
      'create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
    );
    const appliedRows = await connection.query<{ version: number }>('select version from schema_migrations');
    const applied = new Set(appliedRows.map((row) => row.version));
    const newlyApplied: string[] = [];
    for (const migration of migrations.filter((candidate) => !applied.has(candidate.version))) {
      await connection.exec('begin');
      try {
        await connection.exec(migration.sql);
        await connection.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
        await connection.exec('commit');
      } catch (error) {
        await connection.exec('rollback');
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      newlyApplied.push(migration.name);
    }
    // Last, the snapshot index's typed columns, which the entity schemas (not a script) define.
    await ensureSnapshotIndexColumns(connection);
    return newlyApplied;
  });
}
