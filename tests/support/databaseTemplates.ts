import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../src/server/db/migrate.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';

// Most of a test server's start is making its database: PGlite's initdb (in WebAssembly) and 117 migrations, or
// PostgreSQL's migrations. Test files start from a migrated template instead: built once per set of migrations and
// shared by every test file and worker of the run (and of later runs, until a migration or entity schema changes).
// Starting from a template is what the server does with an existing database; the migrations themselves stay
// covered by the tests that open empty databases (openScratchDatabase) and by the start-up tests.

const projectRoot = new URL('../../', import.meta.url);

/** Names the migrated schema: the migration scripts, the entity schemas (the index's typed columns) and PGlite. */
function fingerprint(): string {
  const hash = createHash('sha256');
  for (const folder of ['src/server/db/migrations', 'schemas/entities']) {
    const directory = new URL(folder + '/', projectRoot);
    for (const name of readdirSync(directory).sort()) hash.update(name).update(readFileSync(new URL(name, directory)));
  }
  hash.update(JSON.parse(readFileSync(new URL('node_modules/@electric-sql/pglite/package.json', projectRoot), 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}

let cachedFingerprint: string | null = null;
const currentFingerprint = () => (cachedFingerprint ??= fingerprint());
const pgliteTemplateRoot = () => join(tmpdir(), `cartograph-template-${currentFingerprint()}`);

/**
 * The migrated PGlite template, as a data folder (to copy) and as its dump (to load in memory). Workers that find
 * none build one each in a folder of their own; the first rename wins and the others' copies are thrown away.
 */
async function pgliteTemplate(): Promise<{ folder: string; dump: string }> {
  const root = pgliteTemplateRoot();
  const template = { folder: join(root, 'pglite'), dump: join(root, 'pglite.tar') };
  if (existsSync(template.dump)) return template;
  const building = `${root}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const db = await openPgliteDatabase(join(building, 'pglite'));
  await migrate(db);
  writeFileSync(join(building, 'pglite.tar'), Buffer.from(await (await db.pglite.dumpDataDir('none')).arrayBuffer()));
  await db.close();
  try {
    renameSync(building, root);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return template;
}

let pgliteDump: Promise<Blob> | null = null;

/** A migrated in-memory PGlite database. */
export async function openMigratedPglite(): Promise<Awaited<ReturnType<typeof openPgliteDatabase>>> {
  pgliteDump ??= pgliteTemplate().then((template) => new Blob([readFileSync(template.dump)]));
  return openPgliteDatabase(null, await pgliteDump);
}

/** Fills `dataDir` (a server's data folder, as CARTOGRAPH_DATA_DIR) with a migrated PGlite database. */
export async function seedMigratedPgliteFolder(dataDir: string): Promise<void> {
  cpSync((await pgliteTemplate()).folder, join(dataDir, 'pglite'), { recursive: true });
}

/**
 * The name of the migrated PostgreSQL template database on the server `serverUrl` names, built once under an advisory
 * lock (other workers wait for it). Templates of older fingerprints are dropped when a new one is built.
 */
export async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `cartograph_template_${currentFingerprint()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(727100099)');
    const [found] = (await admin.query('select 1 from pg_database where datname = $1', [name])).rows;
    if (!found) {
      const stale = (await admin.query("select datname from pg_database where datname like 'cartograph_template_%'")).rows as { datname: string }[];
      for (const { datname } of stale) await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.query(`drop database if exists ${name}_building with (force)`);
      await admin.query(`create database ${name}_building`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}_building`;
      const db = await openPostgresDatabase(url.toString(), 1);
      await migrate(db);
      await db.close();
      await admin.query(`alter database ${name}_building rename to ${name}`);
    }
  } finally {
    await admin.query('select pg_advisory_unlock(727100099)').catch(() => undefined);
    await admin.end();
  }
  return name;
}
