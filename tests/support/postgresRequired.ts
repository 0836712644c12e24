// PostgreSQL-only tests (faults, workers, reconnects, restarts) and the PostgreSQL half of every server test.
// On a developer's machine without DATABASE_URL they skip; in CI they must never skip silently, so there they run
// and fail, saying that the database is missing (.ci/run starts one and exports DATABASE_URL).

type Environment = Record<string, string | undefined>;

/** Whether the CI variable says this is a CI run (unset, '', '0' and 'false' say it is not). */
export function isCi(environment: Environment = process.env): boolean {
  const value = environment.CI?.trim().toLowerCase();
  return Boolean(value) && value !== '0' && value !== 'false';
}

/** Whether PostgreSQL-only tests run: when DATABASE_URL names a server, and always in CI (where its absence fails them). */
export function postgresTestsRun(environment: Environment = process.env): boolean {
  return Boolean(environment.DATABASE_URL) || isCi(environment);
}

/** The PostgreSQL server the tests use, or an error that says why there is none. */
export function requirePostgresUrl(environment: Environment = process.env): string {
  if (environment.DATABASE_URL) return environment.DATABASE_URL;
  throw new Error(
    isCi(environment)
      ? 'CI is set but DATABASE_URL is not: the PostgreSQL tests cannot run (.ci/run starts a PostgreSQL and exports DATABASE_URL).'
      : 'DATABASE_URL is not set: a PostgreSQL-only test needs a server.',
  );
}
