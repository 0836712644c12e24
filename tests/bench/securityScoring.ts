// The security-scoring figure: the starter library (every starter policy enabled), one profile-scoped policy and
// two profiles scored over one snapshot of N devices (default 100k), each with software installations and
// vulnerability findings, as the publish runs it (pipeline.ts: the other inventories' index, then scoreSnapshot,
// then the devices' index, in one transaction), then the overview endpoint's p95. Printed as JSON beside two
// baselines measured in the same run over the same rows: building the devices' index (what the publish spends
// without scoring), and each policy's failing devices only counted (`select count(*)`, no write): the floor of the
// conditions themselves.
// Run: `npx tsx tests/bench/securityScoring.ts [devices] [pglite|postgresql]` (PostgreSQL from DATABASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { openPgliteDatabase } from '../../src/server/db/pgliteDatabase.js';
import { openPostgresDatabase } from '../../src/server/db/postgresDatabase.js';
import { seededRandom } from '../../src/server/demo/random.js';
import { inventorySchemas } from '../../src/server/inventory/indexedFields.js';
import { queryCondition, relationOptions } from '../../src/server/inventory/search.js';
import { buildSnapshotIndex, snapshotIndexedFields } from '../../src/server/inventory/snapshotIndex.js';
import { scoreSnapshot } from '../../src/server/security/scoring.js';
import { policyKind, profileKind } from '../../src/server/security/securityStore.js';
import { starterPolicies } from '../../src/server/security/starterPolicies.js';
import { startCartograph } from '../../src/server/server.js';
import { createScratchPostgres } from '../server/harness.js';
import { percentiles } from './measure.js';

const password = 'bench admin passphrase';
const adapterNames = ['active-directory', 'crowdstrike', 'microsoft-intune', 'qualys', 'servicenow', 'splunk'];
const systems = ['Windows 10 Enterprise', 'Windows 11 Pro', 'Windows Server 2012 R2', 'Windows Server 2022', 'Ubuntu 22.04', 'CentOS Linux 7', 'macOS 14.4'];

async function writeSnapshot(db: Database, devices: number): Promise<number> {
  const random = seededRandom(7);
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time) values (1, 'running', now()) returning id");
  const batch = 5000;
  for (let start = 0; start < devices; start += batch) {
    const ids: string[] = [];
    const fields: string[] = [];
    const specifics: string[] = [];
    const findings: [string, string, string, string][] = [];
    const installs: [string, string, string][] = [];
    for (let index = start; index < Math.min(devices, start + batch); index += 1) {
      const adapters = adapterNames.filter(() => random.chance(0.6));
      const asset = `device-${index}`;
      ids.push(asset);
      fields.push(JSON.stringify({
        PrimaryKey: [asset], Hostname: [`${random.chance(0.2) ? 'srv' : 'ws'}-${index}`], 'OS.FullOsString': [random.pick(systems)], 'OS.Type': ['Windows'],
        Adapters: adapters, AdapterCount: [adapters.length], ...(random.chance(0.7) && { SerialNumber: [`SN${index}`] }),
        LastSeen: [new Date(Date.now() - random.integer(20) * 86_400_000).toISOString()],
      }));
      specifics.push(JSON.stringify(random.chance(0.5) ? { 'Specifics.microsoft-intune.isEncrypted': [random.chance(0.8)] } : {}));
      for (let finding = 0; finding < 4; finding += 1) {
        const cve = random.integer(2000);
        findings.push([`${asset}:${finding}`, asset, `vulnerability-${cve}`, random.pick(['Critical', 'High', 'Medium', 'Low'])]);
      }
      for (let software = 0; software < 10; software += 1) {
        const product = random.integer(500);
        installs.push([asset, `software-${product}`, product === 7 ? 'AnyDesk' : `Product ${product}`]);
      }
    }
    await db.query(
      `insert into snapshot_assets (discovery_id, entity, asset_id, fields, specifics, preferred, record_keys, reasons)
       select $1, 'device', asset_id, fields, specifics, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::text[], $3::jsonb[], $4::jsonb[]) as batch(asset_id, fields, specifics)`,
      [id, ids, fields, specifics],
    );
    await db.query(
      `insert into snapshot_findings (discovery_id, finding_id, device_asset, vulnerability_asset, severity, source_status, adapters, sources)
       select $1, f, d, v, s, 'open', '{qualys}', '[]'::jsonb from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as batch(f, d, v, s)`,
      [id, ...[0, 1, 2, 3].map((column) => findings.map((row) => row[column]))],
    );
    await db.query(
      `insert into snapshot_installations (discovery_id, device_asset, software_asset, software_name, adapter, connection_id)
       select $1, d, s, n, 'microsoft-intune', 1 from unnest($2::text[], $3::text[], $4::text[]) as batch(d, s, n)`,
      [id, ...[0, 1, 2].map((column) => installs.map((row) => row[column]))],
    );
  }
  const vulnerabilities = Array.from({ length: 2000 }, (_, index) => JSON.stringify({ PrimaryKey: [`vulnerability-${index}`], CveId: [`CVE-2024-${index}`], Severity: [index % 4 === 0 ? 'Critical' : 'High'], Kev: [index % 50 === 0], ExploitKnown: [index % 20 === 0], EpssScore: [(index % 100) / 100] }));
  await db.query(
    `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
     select $1, 'vulnerability', 'vulnerability-' || (ordinality - 1), fields, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::jsonb[]) with ordinality as batch(fields, ordinality)`,
    [id, vulnerabilities],
  );
  const software = Array.from({ length: 500 }, (_, index) => JSON.stringify({ PrimaryKey: [`software-${index}`], Name: [index === 7 ? 'AnyDesk' : `Product ${index}`] }));
  await db.query(
    `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
     select $1, 'software', 'software-' || (ordinality - 1), fields, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::jsonb[]) with ordinality as batch(fields, ordinality)`,
    [id, software],
  );
  // As the publish does: every inventory's index but the devices', which is written after the scoring.
  await buildSnapshotIndex(db, id, Object.keys(inventorySchemas).filter((entity) => entity !== 'device'));
  await db.exec('analyze snapshot_assets; analyze snapshot_index; analyze snapshot_findings; analyze snapshot_installations');
  return id;
}

async function main() {
  const devices = Number(process.argv[2] ?? 100_000);
  const engine = process.argv[3] ?? 'pglite';
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-security-bench-'));
  const scratch = engine === 'postgresql' ? await createScratchPostgres() : null;
  const database = scratch ? await openPostgresDatabase(scratch.url, 4) : await openPgliteDatabase(null);
  const running = await startCartograph({ ...readConfig({}), outboundAllowLoopback: true, dataDir, adminPassword: password, secretKey: 'bench', signInRateLimitPerMinute: 100_000, passwordExpiryDays: 0 }, { logger: false, database });
  try {
    const { db } = running.context;
    const written = performance.now();
    const discoveryId = await writeSnapshot(db, devices);
    console.error(`${engine}: wrote a ${devices}-device snapshot in ${((performance.now() - written) / 1000).toFixed(1)} s`);
    for (const policy of starterPolicies) await db.query('insert into resources (kind, company_id, document) values ($1, 1, $2)', [policyKind, JSON.stringify({ ...policy, enabled: true, weight: null, profile_ids: [] })]);
    const [servers] = await db.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, 1, $2) returning id', [profileKind, JSON.stringify({ name: 'Servers', query: 'Hostname = srv-*', criticality: 5 })]);
    await db.query('insert into resources (kind, company_id, document) values ($1, 1, $2)', [profileKind, JSON.stringify({ name: 'Windows', query: 'OS.FullOsString = Windows*', criticality: 2 })]);
    await db.query('insert into resources (kind, company_id, document) values ($1, 1, $2)', [policyKind, JSON.stringify({ name: 'Servers in the CMDB', query: 'Adapters = servicenow', severity: 'high', enabled: true, profile_ids: [servers.id] })]);
    const seconds = (from: number) => Number(((performance.now() - from) / 1000).toFixed(2));
    let scoring = 0;
    let deviceIndex = 0;
    await db.transaction(async (connection) => {
      const started = performance.now();
      await scoreSnapshot(connection, 1, discoveryId);
      scoring = seconds(started);
      const indexing = performance.now();
      await buildSnapshotIndex(connection, discoveryId, ['device']);
      deviceIndex = seconds(indexing);
      await connection.query("update discoveries set status = 'done', end_time = now() where id = $1", [discoveryId]);
    });
    const slowest = await db.query<{ name: string; duration_ms: number }>('select name, duration_ms from security_policy_results where discovery_id = $1 order by duration_ms desc limit 3', [discoveryId]);
    // Baseline: each enabled policy's failing devices counted over the devices' index, as a list's count would.
    const policies = await db.query<{ query: string }>("select document->>'query' as query from resources where kind = $1 and company_id = 1", [policyKind]);
    const indexed = await snapshotIndexedFields(db, discoveryId, 'device');
    const relations = await relationOptions(db, 1, discoveryId, 'device');
    const counting = performance.now();
    for (const policy of policies) {
      const condition = await queryCondition(db, { companyId: 1, userId: null }, `NOT (${policy.query})`, 3, indexed, relations);
      await db.query(`select count(*) from ${condition.table} where discovery_id = $1 and entity = $2 and ${condition.sql}`, [discoveryId, 'device', ...condition.params]);
    }
    const countsOnly = seconds(counting);
    // Baseline: the same scoring of the snapshot once its devices' index is built (the publish's order before the
    // devices' index moved after the scoring): the scores are then rewritten into the index rows.
    let rescoring = 0;
    await db.transaction(async (connection) => {
      for (const table of ['security_policy_results', 'security_policy_failures', 'security_device_scores', 'security_profile_members', 'security_scores']) await connection.query(`delete from ${table} where discovery_id = $1`, [discoveryId]);
      const started = performance.now();
      await scoreSnapshot(connection, 1, discoveryId);
      rescoring = seconds(started);
    });
    const token = (await running.app.inject({ method: 'POST', url: '/api/token', payload: { username: 'admin', password } })).json().access as string;
    const times: number[] = [];
    for (let round = 0; round < 30; round += 1) {
      const begun = performance.now();
      const answer = await running.app.inject({ method: 'GET', url: '/securitymanager/overview', headers: { authorization: `Bearer ${token}` } });
      if (answer.statusCode !== 200) throw new Error(answer.body);
      times.push(performance.now() - begun);
    }
    const overview = percentiles(times);
    // The machine is shared: the load average says how far the figures are from a quiet machine's.
    const load = loadavg().map((value) => value.toFixed(2)).join(' ');
    console.log(JSON.stringify({
      bench: 'security-scoring', engine, devices, policies: policies.length, profiles: 2, load_average: load,
      scoring_s: scoring, slowest_policies: slowest.map((row) => `${row.name}: ${row.duration_ms} ms`),
      overview_p50_ms: overview.p50_ms, overview_p95_ms: overview.p95_ms,
      baseline: { device_index_build_s: deviceIndex, policy_counts_only_s: countsOnly, scoring_after_device_index_s: rescoring },
    }));
  } finally {
    await running.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
