import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMigrations } from '../../src/server/db/migrate.js';

describe('migration scripts', () => {
  it('each have a version of their own', () => {
    const versions = loadMigrations().map((migration) => migration.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('refuse two scripts of one version, naming both', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cartograph-migrations-'));
    try {
      writeFileSync(join(folder, '0001_first.sql'), 'select 1;');
      writeFileSync(join(folder, '0001_second.sql'), 'select 2;');
      expect(() => loadMigrations(folder)).toThrow('Migrations 0001_first and 0001_second share version 1: renumber one');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
