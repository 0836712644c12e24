import { describe, expect, it } from 'vitest';
import { postgresTestsRun, requirePostgresUrl } from '../support/postgresRequired.js';

describe('PostgreSQL-only tests', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/postgres';

  it('skip on a developer machine without DATABASE_URL', () => {
    expect(postgresTestsRun({})).toBe(false);
    expect(postgresTestsRun({ CI: '' })).toBe(false);
    expect(postgresTestsRun({ CI: 'false' })).toBe(false);
    expect(postgresTestsRun({ CI: '0' })).toBe(false);
  });

  it('run whenever DATABASE_URL names a server', () => {
    expect(postgresTestsRun({ DATABASE_URL: url })).toBe(true);
    expect(requirePostgresUrl({ DATABASE_URL: url })).toBe(url);
    expect(requirePostgresUrl({ DATABASE_URL: url, CI: 'true' })).toBe(url);
  });

  it('run in CI without DATABASE_URL, and fail there saying why instead of skipping', () => {
    expect(postgresTestsRun({ CI: 'true' })).toBe(true);
    expect(postgresTestsRun({ CI: '1' })).toBe(true);
    expect(() => requirePostgresUrl({ CI: 'true' })).toThrow(/CI is set but DATABASE_URL is not/);
    expect(() => requirePostgresUrl({})).toThrow(/DATABASE_URL/);
  });
});
