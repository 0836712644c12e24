// `npm run bench`: the foundation's figures, each beside a baseline measured in the same run, printed as JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords.js';
import { readConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { boundHeapGrowth } from '../../src/server/heapGrowth.js';
import { startCartograph } from '../../src/server/server.js';
import { createScratchPostgres } from '../server/harness.js';
import { benchHttpEngine } from './httpEngine.js';
import { benchDashboards } from './dashboards.js';
import { discoveryBench, softwareDiscoveryBench } from './discovery.js';
import { benchLoad } from './load.js';
import { normalizationBench } from './normalization.js';
import { bundledLifecycle } from '../support/bundledLifecycle.js';
import { scaleBench } from './scale.js';
import { benchSoftwareLists } from './softwareLists.js';
import { benchCertificateLists } from './certificateLists.js';
import { benchServiceLicenseLists } from './serviceLicenseLists.js';
import { benchReports } from './reports.js';
import { percentiles, time } from './measure.js';
import { benchQueryBar } from './queryBar.js';

const documents = 10_000;
const iterations = 200;
const password = 'bench admin passphrase';

async function seedSavedQueries(db: Database): Promise<void> {
  for (let offset = 0; offset < documents; offset += 1000) {
    const rows = Array.from({ length: 1000 }, (_, index) => JSON.stringify({ name: `Query ${offset + index}`, text: `Hostname = host-${(offset + index) % 97}*`, type: 'device', tags: [] }));
    await db.query("insert into resources (kind, company_id, document) select 'cartograph:entities/saved-query', 1, unnest($1::jsonb[])", [rows]);
  }
}

async function benchEngine(engine: 'pglite' | 'postgresql') {
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-bench-'));
  const database = scratch ? await openPostgresDatabase(scratch.url) : await openPgliteDatabase(null);
  const running = await startCartograph({ ...readConfig({}), outboundAllowLoopback: true, dataDir, adminPassword: password, secretKey: 'bench', signInRateLimitPerMinute: 100_000 }, { logger: false, database });
  try {
    await seedSavedQueries(running.context.db);
    const access = (await running.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password } })).json().access;
    const url = '/queries/queries?search=host-42&ordering=-name&size=50';
    const api = await time(iterations, () => running.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${access}` } }));
    // Baseline: the same count and page queries sent straight to the database, without HTTP, auth or validation.
    const filter = "kind = $1 and company_id = 1 and exists (select 1 from unnest($2::text[]) field where document->>field ilike $3)";
    const params = ['cartograph:entities/saved-query', ['name', 'text'], '%host-42%'];
    const direct = await time(iterations, async () => {
      await running.context.db.query(`select count(*)::int from resources where ${filter}`, params);
      await running.context.db.query(`select id, document from resources where ${filter} order by document->'name' desc, id limit 50`, params);
    });
    return { engine, documents, list_api: percentiles(api), list_sql_baseline: percentiles(direct) };
  } finally {
    await running.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchSignIn() {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-bench-'));
  const running = await startCartograph({ ...readConfig({}), outboundAllowLoopback: true, dataDir, adminPassword: password, secretKey: 'bench', signInRateLimitPerMinute: 100_000 }, { logger: false, database: await openPgliteDatabase(null) });
  try {
    const api = await time(30, () => running.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password } }));
    const hashed = await hashPassword(password);
    const argon2Only = await time(30, () => verifyPassword(hashed, password));
    return { sign_in_api: percentiles(api), argon2id_verify_baseline: percentiles(argon2Only) };
  } finally {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The servers measured here run in this process: bound its heap's growth as `npm start` and `npm run worker` do.
boundHeapGrowth();
// `npm run bench -- --devices 1000000 [--workers 2]`: only the scale figures, on PostgreSQL with worker processes (tests/bench/scale.ts).
const devicesArgument = process.argv.indexOf('--devices');
if (devicesArgument >= 0) {
  const workersArgument = process.argv.indexOf('--workers');
  const workerCounts = workersArgument >= 0 ? [Number(process.argv[workersArgument + 1])] : undefined;
  process.stdout.write(`${JSON.stringify(await scaleBench(Number(process.argv[devicesArgument + 1]), workerCounts), null, 2)}\n`);
  process.exit(0);
}
// `npm run bench -- --avm`: only the AVM figures: 250k-CVE NVD and 250k-row EPSS imports, and the software → CVE
// matching of 100k devices × 40 installations against them (tests/bench/avmFeeds.ts, tests/bench/avmMatching.ts).
if (process.argv.includes('--avm')) {
  const { avmFeedsBench } = await import('./avmFeeds.js');
  const { avmMatchingBench } = await import('./avmMatching.js');
  const matching = await avmMatchingBench();
  process.stderr.write(`${JSON.stringify(matching)}\n`);
  process.stdout.write(`${JSON.stringify({ avm_matching: matching, avm_imports: await avmFeedsBench() }, null, 2)}\n`);
  process.exit(0);
}
// `npm run bench -- --osv`: only the OSV feed figures: Debian's and Maven's all.zip at real size (tests/bench/osvFeeds.ts).
if (process.argv.includes('--osv')) {
  const { osvFeedsBench } = await import('./osvFeeds.js');
  process.stdout.write(`${JSON.stringify({ osv_imports: await osvFeedsBench() }, null, 2)}\n`);
  process.exit(0);
}
// `npm run bench -- --packages`: only package matching by OSV advisories at 100k Debian servers × 40 packages (tests/bench/packageMatching.ts).
if (process.argv.includes('--packages')) {
  const { packageMatchingBench } = await import('./packageMatching.js');
  process.stdout.write(`${JSON.stringify({ package_matching: await packageMatchingBench() }, null, 2)}\n`);
  process.exit(0);
}
// `npm run bench -- --normalization`: only the normalization figures (tests/bench/normalization.ts).
if (process.argv.includes('--normalization')) {
  process.stdout.write(`${JSON.stringify({ normalization: normalizationBench(await bundledLifecycle(new Date().toISOString().slice(0, 10))) }, null, 2)}\n`);
  process.exit(0);
}
const engines: ('pglite' | 'postgresql')[] = process.env.DATABASE_URL ? ['pglite', 'postgresql'] : ['pglite'];
// `npm run bench -- --reports`: only the report outputs at 100k devices (tests/bench/reports.ts).
if (process.argv.includes('--reports')) {
  const reports = [];
  for (const engine of engines) reports.push(await benchReports(engine));
  process.stdout.write(`${JSON.stringify({ reports }, null, 2)}\n`);
  process.exit(0);
}
const results = { list: [] as unknown[], sign_in: await benchSignIn(), dashboards: [] as unknown[] };
for (const engine of engines) results.list.push(await benchEngine(engine));
const httpEngine = await benchHttpEngine();
for (const engine of engines) results.dashboards.push(await benchDashboards(engine));
// Discoveries of 10k and 100k devices, the device list at 100k, and merge precision and recall (tests/bench/discovery.ts).
const discovery = await discoveryBench();
// Normalization of the replayed 10k and 100k fleets' device records beside mapping them alone (tests/bench/normalization.ts).
const normalization = normalizationBench(await bundledLifecycle(new Date().toISOString().slice(0, 10)));
// The 100k discovery with the EDR's software and findings, beside the device-only one (tests/bench/discovery.ts).
const softwareDiscovery = await softwareDiscoveryBench();
// Software and vulnerability lists at 100k devices × 40 installations (tests/bench/softwareLists.ts).
const softwareLists = [];
for (const engine of engines) softwareLists.push(await benchSoftwareLists(engine));
// The certificate list at 100k certificates and the service and license lists at 100k rows (tests/bench/certificateLists.ts, serviceLicenseLists.ts).
const certificateLists = [];
const serviceLicenseLists = [];
for (const engine of engines) {
  certificateLists.push(await benchCertificateLists(engine));
  serviceLicenseLists.push(await benchServiceLicenseLists(engine));
}
// The query bar at 100k devices: value suggestions and the live count, beside the device list (tests/bench/queryBar.ts).
const queryBar = [];
for (const engine of engines) queryBar.push(await benchQueryBar(engine));
// 50 clients for 60 s on PostgreSQL at 100k devices (tests/bench/load.ts); null without DATABASE_URL.
const load = await benchLoad();
// A report with a 100k-row table, two charts and a comparison as CSV, XLSX and PDF (tests/bench/reports.ts).
const reports = [];
for (const engine of engines) reports.push(await benchReports(engine));
process.stdout.write(`${JSON.stringify({ ...results, http_engine: httpEngine, discovery, normalization, software_discovery: softwareDiscovery, software_lists: softwareLists, certificate_lists: certificateLists, service_license_lists: serviceLicenseLists, query_bar: queryBar, load, reports }, null, 2)}\n`);
