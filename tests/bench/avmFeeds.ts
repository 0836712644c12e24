// The AVM feeds figure (`npm run bench -- --avm` with the matching figure of tests/bench/avmMatching.ts, or alone):
//   npx tsx tests/bench/avmFeeds.ts [--cves 250000] [--engine pglite|postgresql]
// Generates an NVD CVE JSON 2.0 feed of `--cves` records (the shape and size of NVD's: descriptions, CVSS v3.1 and
// v2 metrics, weaknesses, one to three configurations of CPE criteria with version bounds, references) and an
// EPSS CSV of as many rows, imports both through the importer the API uses, and prints wall time, records per
// second and the process's peak RSS and heap for each, as JSON. PostgreSQL needs DATABASE_URL.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { importFeed, type FeedSlug } from '../../src/server/avm/feedImport.js';
import type { Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { seededRandom } from '../../src/server/demo/random.js';
import { createScratchPostgres } from '../server/harness.js';

const argument = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const cveCount = Number(argument('cves', '250000'));
const engine = argument('engine', process.env.DATABASE_URL ? 'postgresql' : 'pglite') as 'pglite' | 'postgresql';

/** Writes text to a stream, waiting when its buffer is full (bounded memory whatever the file's size). */
async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * A generated NVD-shaped feed, gzipped as NVD publishes it; vendors and products from pools of realistic size. With
 * `benchProducts`, every twelfth CVE names one of the software bench's products (`vendor_<n % 50>:product_<n>`,
 * tests/bench/fleetSoftware.ts) with a version range, so that a discovery of that fleet has installations to match.
 */
export async function generateNvd(path: string, count: number, benchProducts = 0): Promise<void> {
  const random = seededRandom(13);
  const vendors = Array.from({ length: 4000 }, (_, index) => `vendor${index}`);
  const gzip = createGzip({ level: 1 });
  const file = createWriteStream(path);
  gzip.pipe(file);
  await write(gzip, `{"resultsPerPage":${count},"startIndex":0,"totalResults":${count},"format":"NVD_CVE","version":"2.0","timestamp":"2026-11-24T03:00:00.000","vulnerabilities":[\n`);
  for (let index = 0; index < count; index += 1) {
    const benchProduct = benchProducts && index % 12 === 0 ? random.integer(benchProducts) : -1;
    const vendor = benchProduct >= 0 ? `vendor_${benchProduct % 50}` : random.pick(vendors);
    const product = benchProduct >= 0 ? `product_${benchProduct}` : `product${random.integer(8)}`;
    const major = random.integer(20);
    const configurations = Array.from({ length: 1 + random.integer(3) }, () => ({
      nodes: [{
        operator: 'OR', negate: false,
        cpeMatch: Array.from({ length: 1 + random.integer(6) }, (_, criterion) => ({
          vulnerable: true, criteria: `cpe:2.3:a:${vendor}:${product}:*:*:*:*:*:*:*:*`,
          ...(benchProduct >= 0
            ? { versionStartIncluding: `${1 + criterion}.0.0`, versionEndExcluding: `${1 + criterion}.${random.integer(7)}.0` }
            : { versionStartIncluding: `${major}.${criterion}.0`, versionEndExcluding: `${major}.${criterion}.${1 + random.integer(30)}` }),
          matchCriteriaId: '6D6E1C7B-0000-4000-8000-000000000000',
        })),
      }],
    }));
    const record = {
      cve: {
        id: `CVE-${1999 + (index % 27)}-${String(10000 + index).padStart(5, '0')}`, sourceIdentifier: 'cve@mitre.org', published: '2024-03-29T17:15:21.150', lastModified: '2025-02-01T10:00:00.000', vulnStatus: 'Analyzed',
        descriptions: [{ lang: 'en', value: `A vulnerability in ${product} of ${vendor} allows a remote attacker to execute arbitrary code via a crafted request to the management interface; versions before the fixed release are affected. ${'Details follow. '.repeat(random.integer(10))}` }],
        metrics: {
          cvssMetricV31: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '3.1', vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', baseScore: 9.8, baseSeverity: 'CRITICAL', attackVector: 'NETWORK', attackComplexity: 'LOW', privilegesRequired: 'NONE', userInteraction: 'NONE', scope: 'UNCHANGED', confidentialityImpact: 'HIGH', integrityImpact: 'HIGH', availabilityImpact: 'HIGH' }, exploitabilityScore: 3.9, impactScore: 5.9 }],
          cvssMetricV2: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '2.0', vectorString: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', baseScore: 7.5 }, baseSeverity: 'HIGH' }],
        },
        weaknesses: [{ source: 'nvd@nist.gov', type: 'Primary', description: [{ lang: 'en', value: `CWE-${random.integer(900)}` }] }],
        configurations,
        references: Array.from({ length: 1 + random.integer(8) }, (_, reference) => ({ url: `https://example.org/advisories/${index}/${reference}`, source: 'cve@mitre.org', tags: ['Vendor Advisory'] })),
      },
    };
    await write(gzip, `${index ? ',\n' : ''}${JSON.stringify(record)}`);
  }
  await write(gzip, '\n]}\n');
  gzip.end();
  await once(file, 'finish');
}

export async function generateEpss(path: string, count: number): Promise<void> {
  const random = seededRandom(7);
  const file = createWriteStream(path);
  await write(file, '#model_version:v2025.03.14,score_date:2026-11-24T00:00:00+0000\ncve,epss,percentile\n');
  for (let index = 0; index < count; index += 1) {
    await write(file, `CVE-${1999 + (index % 27)}-${String(10000 + index).padStart(5, '0')},${(random.integer(100000) / 100000).toFixed(5)},${(random.integer(100000) / 100000).toFixed(5)}\n`);
  }
  file.end();
  await once(file, 'finish');
}

/** Wall time and peak memory of one import, sampling RSS and heap as it runs. */
export async function measureImport(db: Database, slug: FeedSlug, path: string) {
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 50);
  const started = performance.now();
  const outcome = await importFeed(db, slug, path, createReadStream(path, { highWaterMark: 256 * 1024 }));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return {
    feed: slug, file_mb: Number((statSync(path).size / 1048576).toFixed(1)), records: outcome.records, wall_seconds: Number(seconds.toFixed(1)),
    records_per_second: Math.round(outcome.records / seconds), peak_rss_mb: Math.round(peakRss / 1048576), peak_heap_mb: Math.round(peakHeap / 1048576),
  };
}

export async function avmFeedsBench() {
  const folder = mkdtempSync(join(tmpdir(), 'cartograph-avm-bench-'));
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  try {
    const nvdPath = join(folder, 'nvdcve-2.0-generated.json.gz');
    const epssPath = join(folder, 'epss_scores-generated.csv');
    await generateNvd(nvdPath, cveCount);
    await generateEpss(epssPath, cveCount);
    const db = scratch ? await openPostgresDatabase(scratch.url, 4) : await openPgliteDatabase(join(folder, 'pglite'));
    await migrate(db);
    const baselineRss = Math.round(process.memoryUsage().rss / 1048576);
    const nvd = await measureImport(db, 'nvd-cve', nvdPath);
    const epss = await measureImport(db, 'first-epss', epssPath);
    // Importing the same file again replaces its CVEs: the idempotent path, which also deletes the previous rows.
    const nvdAgain = await measureImport(db, 'nvd-cve', nvdPath);
    await db.close();
    return { engine, cves: cveCount, baseline_rss_mb: baselineRss, imports: [nvd, epss, { ...nvdAgain, feed: 'nvd-cve (again, replacing)' }] };
  } finally {
    await scratch?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await avmFeedsBench(), null, 2));
