// One OSV import in a process of its own, so that its peak memory is the import's and nothing else's (the archives'
// generation, earlier imports): run by tests/bench/osvFeeds.ts as
//   node --import tsx tests/bench/osvImportProcess.ts <pglite folder | postgres url> <archive>
// It opens the database (PGlite in this process, or a PostgreSQL server), imports the archive through the importer
// the API uses, and prints one JSON line: wall time, records, the peak RSS sampled during the import, and the
// process's whole-life peak RSS as the kernel counts it (`maxRSS`: start-up, database and import together).
import { createReadStream, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { importFeed } from '../../src/server/avm/feedImport.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';

const [target, archive] = process.argv.slice(2);
const megabytes = (bytes: number) => Math.round(bytes / 1048576);
const maxRss = () => Math.round(process.resourceUsage().maxRSS / 1024);
const db = /^postgres(ql)?:\/\//.test(target) ? await openPostgresDatabase(target, 4) : await openPgliteDatabase(target);
const openedMaxRss = maxRss();
const before = process.memoryUsage();
let peakRss = before.rss;
let peakHeap = before.heapUsed;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
}, 25);
const started = performance.now();
const outcome = await importFeed(db, 'osv', archive, createReadStream(archive, { highWaterMark: 256 * 1024 }));
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const importedMaxRss = maxRss();
await db.close();
process.stdout.write(`${JSON.stringify({
  engine: db.engine, file_mb: Number((statSync(archive).size / 1048576).toFixed(1)), records: outcome.records, wall_seconds: Number(seconds.toFixed(1)),
  records_per_second: Math.round(outcome.records / seconds), rss_before_mb: megabytes(before.rss), peak_rss_mb: megabytes(peakRss), peak_heap_mb: megabytes(peakHeap),
  max_rss_after_open_mb: openedMaxRss, max_rss_after_import_mb: importedMaxRss, process_max_rss_mb: maxRss(),
})}\n`);
