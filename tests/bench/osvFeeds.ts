// The OSV feed figure (`npm run bench -- --osv`, or alone):
//   npx tsx tests/bench/osvFeeds.ts [--debian 45000] [--maven 30000] [--engine pglite|postgresql]
// Generates two archives the shape and size of OSV's published all.zip: Debian's (DSA, DLA and security-tracker
// DEBIAN-CVE records: the source package on two to four releases, each with its fixed version and, for tracker
// records, the list of affected versions) and Maven's (GitHub advisories: details text, CVSS, one to four packages
// with several ranges, references). Imports each through the importer the API uses, each in a process of its own
// (tests/bench/osvImportProcess.ts), and prints wall time, records per second and that process's peak RSS, as JSON:
// the import's memory, not the generator's. PostgreSQL needs DATABASE_URL.
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import archiver from 'archiver';
import { migrate } from '../../src/server/db/migrate.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { seededRandom } from '../../src/server/demo/random.js';
import { createScratchPostgres } from '../server/harness.js';

const argument = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const debianCount = Number(argument('debian', '45000'));
const mavenCount = Number(argument('maven', '30000'));
const engine = argument('engine', process.env.DATABASE_URL ? 'postgresql' : 'pglite') as 'pglite' | 'postgresql';

/** Writes `count` records made by `record` into a ZIP, one JSON entry each, as OSV publishes them. */
export async function writeArchive(path: string, count: number, record: (index: number) => { id: string }): Promise<void> {
  const archive = archiver('zip', { zlib: { level: 6 } });
  const file = createWriteStream(path);
  archive.pipe(file);
  for (let index = 0; index < count; index += 1) {
    const value = record(index);
    archive.append(JSON.stringify(value, null, 2), { name: `${value.id}.json` });
    // archiver queues appended entries: let it drain now and then so memory stays that of a few entries.
    if (index % 500 === 499) await new Promise(setImmediate);
  }
  await archive.finalize();
  await once(file, 'close');
}

const releases = [['10', 'deb10u'], ['11', 'deb11u'], ['12', 'deb12u'], ['13', '']] as const;

export function debianRecord(index: number, random: ReturnType<typeof seededRandom>) {
  const source = `srcpkg${random.integer(9000)}`;
  const cve = `CVE-${2005 + (index % 21)}-${String(10000 + index).padStart(5, '0')}`;
  const kind = index % 5 === 0 ? 'DSA' : index % 5 === 1 ? 'DLA' : 'DEBIAN-CVE';
  const id = kind === 'DEBIAN-CVE' ? `DEBIAN-${cve}` : `${kind}-${1000 + index}-1`;
  const major = 1 + random.integer(9);
  const chosen = releases.slice(random.integer(2), 2 + random.integer(3));
  return {
    schema_version: '1.6.0', id, modified: '2026-11-20T10:00:00Z', published: '2024-05-02T00:00:00Z', upstream: [cve],
    summary: `${source} - security update`, details: `${cve}: a flaw in ${source} allows a remote attacker to cause a denial of service or possibly execute arbitrary code via crafted input.`,
    affected: chosen.map(([release, suffix]) => ({
      package: { ecosystem: `Debian:${release}`, name: source, purl: `pkg:deb/debian/${source}?arch=source` },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: `${major}.${random.integer(20)}.${random.integer(9)}-${1 + random.integer(4)}${suffix ? `+${suffix}${1 + random.integer(5)}` : ''}` }] }],
      ...(kind === 'DEBIAN-CVE' && { versions: Array.from({ length: 5 + random.integer(40) }, (_, version) => `${major}.${version}.${random.integer(9)}-${1 + random.integer(3)}`) }),
      ecosystem_specific: { urgency: random.pick(['low', 'medium', 'high', 'not yet assigned']) },
    })),
    references: [{ type: 'ADVISORY', url: `https://security-tracker.debian.org/tracker/${id}` }, { type: 'WEB', url: `https://www.debian.org/security/${id.toLowerCase()}` }],
  };
}

function mavenRecord(index: number, random: ReturnType<typeof seededRandom>) {
  const group = `org.example${random.integer(3000)}`;
  const id = `GHSA-${index.toString(36).padStart(4, '0')}-${random.integer(46656).toString(36).padStart(4, '0')}-${random.integer(46656).toString(36).padStart(4, '0')}`;
  return {
    schema_version: '1.4.0', id, modified: '2026-10-01T12:00:00Z', published: '2023-06-01T12:00:00Z', aliases: index % 9 === 0 ? [] : [`CVE-${2010 + (index % 16)}-${String(20000 + index).padStart(5, '0')}`],
    summary: `Deserialization of untrusted data in ${group}`,
    details: `### Impact\n${'A crafted payload sent to an endpoint that deserializes user input leads to remote code execution. '.repeat(5 + random.integer(20))}\n### Patches\nUpgrade to the fixed release.\n`,
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
    affected: Array.from({ length: 1 + random.integer(4) }, (_, position) => ({
      package: { ecosystem: 'Maven', name: `${group}:artifact-${position}-${random.integer(50)}` },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: `${1 + random.integer(5)}.${random.integer(20)}.${random.integer(10)}` }, { introduced: `${6 + random.integer(3)}.0.0` }, { fixed: `${9}.${random.integer(5)}.${random.integer(10)}` }] }],
      database_specific: { source: 'https://github.com/github/advisory-database' },
    })),
    references: Array.from({ length: 3 + random.integer(12) }, (_, reference) => ({ type: 'WEB', url: `https://example.org/${group}/issues/${index}/${reference}` })),
    database_specific: { cwe_ids: ['CWE-502'], severity: 'CRITICAL', github_reviewed: true },
  };
}

const importProcess = fileURLToPath(new URL('./osvImportProcess.ts', import.meta.url));

/** One import of an archive into the database at `target` (a PGlite folder or a PostgreSQL address), in a process of its own. */
async function importInProcess(target: string, archive: string): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', importProcess, target, archive], { cwd: fileURLToPath(new URL('../..', import.meta.url)), maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

export async function osvFeedsBench() {
  const folder = mkdtempSync(join(tmpdir(), 'cartograph-osv-bench-'));
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  try {
    const debianPath = join(folder, 'Debian-all.zip');
    const mavenPath = join(folder, 'Maven-all.zip');
    const random = seededRandom(33);
    await writeArchive(debianPath, debianCount, (index) => debianRecord(index, random));
    await writeArchive(mavenPath, mavenCount, (index) => mavenRecord(index, random));
    const target = scratch?.url ?? join(folder, 'pglite');
    const db = scratch ? await openPostgresDatabase(scratch.url, 4) : await openPgliteDatabase(target);
    await migrate(db);
    await db.close();
    const debian = await importInProcess(target, debianPath);
    const maven = await importInProcess(target, mavenPath);
    // The same archive again replaces its advisories: the repeatable path, which also deletes the previous rows.
    const debianAgain = await importInProcess(target, debianPath);
    return { engine, imports: [{ ...debian, feed: 'osv Debian all.zip' }, { ...maven, feed: 'osv Maven all.zip' }, { ...debianAgain, feed: 'osv Debian all.zip (again, replacing)' }] };
  } finally {
    await scratch?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await osvFeedsBench(), null, 2));
