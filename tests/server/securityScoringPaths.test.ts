import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/server/db/database.js';
import { inventorySchemas } from '../../src/server/inventory/indexedFields.js';
import { queryCondition, relationOptions } from '../../src/server/inventory/search.js';
import { buildSnapshotIndex, snapshotIndexedFields } from '../../src/server/inventory/snapshotIndex.js';
import { explainDevice } from '../../src/server/security/explain.js';
import { scoreSnapshot } from '../../src/server/security/scoring.js';
import { inventoryOf, policyKind, profileKind, weightOf, type PolicyDocument } from '../../src/server/security/securityStore.js';
import { starterPolicies } from '../../src/server/security/starterPolicies.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// The publish scores a snapshot before its devices' index exists, reading their typed rows from a temporary table;
// a snapshot scored again reads its built index instead. Both must give the same scores, failed policies and index
// columns, and those must be what the formula gives from each policy's failing devices as the inventory's own query
// compiler finds them. The snapshot also exercises the certificate and local-administrator starter policies.

const deviceCount = 240;
const oses = ['Windows 10 Enterprise', 'Windows Server 2012 R2', 'Ubuntu 22.04', 'macOS 14.4'];
const adapterSets = [['crowdstrike', 'active-directory'], ['jamfpro'], ['qualys', 'servicenow', 'splunk'], ['microsoft-intune', 'crowdstrike', 'servicenow']];

/** A snapshot of devices, vulnerabilities, software and certificates written as a discovery leaves it before the publish. */
async function writeSnapshot(db: Queryable): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>("insert into discoveries (company_id, status, start_time) values (1, 'running', now()) returning id");
  const ids: string[] = [];
  const documents: string[] = [];
  for (let index = 0; index < deviceCount; index += 1) {
    const adapters = adapterSets[index % adapterSets.length];
    ids.push(`device-${index}`);
    documents.push(JSON.stringify({
      Hostname: [`${index % 5 === 0 ? 'srv' : 'ws'}-${index}`], 'OS.FullOsString': [oses[index % oses.length]], Adapters: adapters, AdapterCount: [adapters.length],
      ...(index % 3 === 0 && { SerialNumber: [`SN${index}`] }), LastSeen: [new Date(Date.now() - (index % 12) * 86_400_000).toISOString()],
      ...(adapters.includes('jamfpro') && { LocalAdminCount: [index % 4 === 1 ? index % 3 : 1] }),
    }));
  }
  await db.query(
    `insert into snapshot_assets (discovery_id, entity, asset_id, fields, specifics, preferred, record_keys, reasons)
     select $1, 'device', asset_id, fields, '{}'::jsonb, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::text[], $3::jsonb[]) as batch(asset_id, fields)`,
    [id, ids, documents],
  );
  const others: [string, string, object][] = [
    ...Array.from({ length: 20 }, (_, index) => ['vulnerability', `vulnerability-${index}`, { CveId: [`CVE-2024-${index}`], Severity: [index % 4 === 0 ? 'Critical' : 'High'], Kev: [index % 7 === 0], EpssScore: [(index % 10) / 10] }] as [string, string, object]),
    ...Array.from({ length: 10 }, (_, index) => ['software', `software-${index}`, { Name: [index === 3 ? 'AnyDesk' : `Product ${index}`] }] as [string, string, object]),
    ...Array.from({ length: 6 }, (_, index) => ['certificate', `certificate-${index}`, { Name: [`www${index}.example.com`], ExpiryStatus: [index % 2 === 0 ? 'Expired' : 'Valid'] }] as [string, string, object]),
  ];
  await db.query(
    `insert into snapshot_assets (discovery_id, entity, asset_id, fields, preferred, record_keys, reasons)
     select $1, entity, asset_id, fields, '{}'::jsonb, '{}'::text[], '[]'::jsonb from unnest($2::text[], $3::text[], $4::jsonb[]) as batch(entity, asset_id, fields)`,
    [id, others.map((row) => row[0]), others.map((row) => row[1]), others.map((row) => JSON.stringify(row[2]))],
  );
  const devicesOf = (step: number, offset: number) => ids.filter((_, index) => index % step === offset);
  const findings = ids.flatMap((device, index) => [0, 1].map((n) => [`${device}:${n}`, device, `vulnerability-${(index * 3 + n) % 20}`]));
  await db.query(
    `insert into snapshot_findings (discovery_id, finding_id, device_asset, vulnerability_asset, severity, source_status, adapters, sources)
     select $1, f, d, v, 'High', case when f like '%:1' then 'fixed' else 'open' end, '{qualys}', '[]'::jsonb from unnest($2::text[], $3::text[], $4::text[]) as batch(f, d, v)`,
    [id, ...[0, 1, 2].map((column) => findings.map((row) => row[column]))],
  );
  const installs = ids.flatMap((device, index) => (index % 2 === 0 ? [[device, `software-${index % 10}`, index % 10 === 3 ? 'AnyDesk' : `Product ${index % 10}`]] : []));
  await db.query(
    `insert into snapshot_installations (discovery_id, device_asset, software_asset, software_name, adapter, connection_id)
     select $1, d, s, n, 'microsoft-intune', 1 from unnest($2::text[], $3::text[], $4::text[]) as batch(d, s, n)`,
    [id, ...[0, 1, 2].map((column) => installs.map((row) => row[column]))],
  );
  // Certificates served by some devices and installed on others; one place is on no device.
  const places = [...devicesOf(7, 0).map((device, index) => [device, `certificate-${index % 6}`, false]), ...devicesOf(11, 3).map((device, index) => [device, `certificate-${(index + 1) % 6}`, true]), [null, 'certificate-0', false]];
  await db.query(
    `insert into snapshot_certificate_places (discovery_id, certificate_asset, host, port, device_asset, installed, adapter, connection_id)
     select $1, c, coalesce(d, 'www.example.com'), 443, d, i, 'network-scanner', 1 from unnest($2::text[], $3::text[], $4::bool[]) as batch(d, c, i)`,
    [id, places.map((row) => row[0]), places.map((row) => row[1]), places.map((row) => row[2])],
  );
  return id;
}

/** PostgreSQL's round() of a double precision: halves go to the even neighbour. */
function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  return fraction > 0.5 ? floor + 1 : fraction < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
}

type Outcome = { scores: unknown[]; results: unknown[]; documents: unknown[]; columns: unknown[] };

async function outcomeOf(db: Queryable, discoveryId: number): Promise<Outcome> {
  return {
    scores: await db.query('select asset_id, score, criticality, failed from security_device_scores where discovery_id = $1 order by asset_id', [discoveryId]),
    results: await db.query('select policy_id, applicable, failed, error from security_policy_results where discovery_id = $1 order by policy_id', [discoveryId]),
    documents: await db.query("select asset_id, fields->'SecurityScore' as score, fields->'FailedPolicies' as failed from snapshot_assets where discovery_id = $1 and entity = 'device' order by asset_id", [discoveryId]),
    columns: await db.query("select asset_id, ix_security_score, ix_security_score_first, ix_failed_policies from snapshot_index where discovery_id = $1 and entity = 'device' order by asset_id", [discoveryId]),
  };
}

describe.each(engines)('security scoring paths on %s', (engine) => {
  let server: TestServer;
  let discoveryId: number;
  let published: Outcome;
  const policies: (PolicyDocument & { id: number })[] = [];
  const profiles: { id: number; query: string; criticality: number }[] = [];

  beforeAll(async () => {
    server = await startTestServer(engine);
    const { db } = server.context;
    discoveryId = await writeSnapshot(db);
    for (const profile of [{ name: 'Servers', query: 'Hostname = srv-*', criticality: 4 }, { name: 'Windows', query: 'OS.FullOsString = Windows*', criticality: 2 }]) {
      const [{ id }] = await db.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, 1, $2) returning id', [profileKind, JSON.stringify(profile)]);
      profiles.push({ id, ...profile });
    }
    const documents: PolicyDocument[] = [
      ...starterPolicies.map((policy) => ({ ...policy, enabled: true, weight: null, profile_ids: [] })),
      { name: 'Servers in the CMDB', query: 'Adapters = servicenow', severity: 'high', enabled: true, profile_ids: [profiles[0].id] },
    ];
    for (const document of documents) {
      const [{ id }] = await db.query<{ id: number }>('insert into resources (kind, company_id, document) values ($1, 1, $2) returning id', [policyKind, JSON.stringify(document)]);
      policies.push({ ...document, id });
    }
    // As the publish does (pipeline.ts): the other inventories' index, the scores, then the devices' index.
    await buildSnapshotIndex(db, discoveryId, Object.keys(inventorySchemas).filter((entity) => entity !== 'device'));
    await db.transaction(async (connection) => {
      await scoreSnapshot(connection, 1, discoveryId);
      await buildSnapshotIndex(connection, discoveryId, ['device']);
    });
    published = await outcomeOf(db, discoveryId);
  }, 120_000);
  afterAll(() => server.stop());

  it('scores as the formula gives from the failing devices the query compiler finds, every policy evaluated', async () => {
    const { db } = server.context;
    const indexed = await snapshotIndexedFields(db, discoveryId, 'device');
    const relations = await relationOptions(db, 1, discoveryId, 'device');
    const matching = async (text: string) => {
      const condition = await queryCondition(db, { companyId: 1, userId: null }, text, 3, indexed, relations);
      return new Set((await db.query<{ asset_id: string }>(`select asset_id from ${condition.table} where discovery_id = $1 and entity = $2 and ${condition.sql}`, [discoveryId, 'device', ...condition.params])).map((row) => row.asset_id));
    };
    const members = new Map<number, Set<string>>();
    for (const profile of profiles) members.set(profile.id, await matching(profile.query));
    // Policies on users (the leaver starter) are evaluated too, and weigh in no device's score.
    const devicePolicies = policies.filter((policy) => inventoryOf(policy) === 'device');
    expect(devicePolicies.length).toBeLessThan(policies.length);
    const failing = new Map<number, Set<string>>();
    for (const policy of devicePolicies) failing.set(policy.id, await matching(`NOT (${policy.query})`));
    expect(published.results).toHaveLength(policies.length);
    expect(published.results.every((result) => (result as { error: string | null }).error === null)).toBe(true);

    const expected = new Map<string, number>();
    for (let index = 0; index < deviceCount; index += 1) {
      const device = `device-${index}`;
      const holding = profiles.filter((profile) => members.get(profile.id)!.has(device));
      let total = 0;
      let lost = 0;
      for (const policy of devicePolicies) {
        const through = holding.filter((profile) => policy.profile_ids?.includes(profile.id));
        if (policy.profile_ids?.length && !through.length) continue;
        const weight = weightOf(policy) * Math.max(1, ...(policy.profile_ids?.length ? through : holding).map((profile) => profile.criticality));
        total += weight;
        if (failing.get(policy.id)!.has(device) && (!policy.profile_ids?.length || through.length)) lost += weight;
      }
      if (total > 0) expected.set(device, roundHalfEven((100 * (total - lost)) / total));
    }
    const stored = new Map((published.scores as { asset_id: string; score: number }[]).map((row) => [row.asset_id, row.score]));
    expect(stored).toEqual(expected);
    // The documents and the devices' index carry the same scores.
    for (const row of published.documents as { asset_id: string; score: number[] }[]) expect(row.score).toEqual([stored.get(row.asset_id)]);
    for (const row of published.columns as { asset_id: string; ix_security_score_first: number }[]) expect(row.ix_security_score_first).toBe(stored.get(row.asset_id));
  });

  it('fails the devices with an expired certificate and those with more than one local administrator, and only those', async () => {
    const { db } = server.context;
    const byStarter = (starterId: string) => policies.find((policy) => (policy as { starter_id?: string }).starter_id === starterId)!;
    const failedBy = (policyId: number) => new Set((published.scores as { asset_id: string; failed: number[] }[]).filter((row) => row.failed.includes(policyId)).map((row) => row.asset_id));
    const expired = await db.query<{ device_asset: string }>(
      `select distinct p.device_asset from snapshot_certificate_places p join snapshot_assets c on c.discovery_id = p.discovery_id and c.entity = 'certificate' and c.asset_id = p.certificate_asset
        where p.discovery_id = $1 and p.device_asset is not null and c.fields->'ExpiryStatus' ? 'Expired'`,
      [discoveryId],
    );
    expect(expired.length).toBeGreaterThan(0);
    expect(failedBy(byStarter('cis-3.10-no-expired-certificate').id)).toEqual(new Set(expired.map((row) => row.device_asset)));
    // The device's explanation shows the values that decided: its certificates' expiry statuses.
    const explained = await explainDevice(db, discoveryId, expired[0].device_asset);
    const certificatePolicy = explained!.policies.find((policy) => policy.id === byStarter('cis-3.10-no-expired-certificate').id)!;
    expect(certificatePolicy).toMatchObject({ passed: false, values: [{ field: 'Certificate.ExpiryStatus', values: expect.arrayContaining(['Expired']) }] });
    const admins = await db.query<{ asset_id: string }>("select asset_id from snapshot_assets where discovery_id = $1 and entity = 'device' and (fields->'LocalAdminCount'->>0)::int > 1", [discoveryId]);
    expect(admins.length).toBeGreaterThan(0);
    expect(failedBy(byStarter('cis-5.4-local-admins').id)).toEqual(new Set(admins.map((row) => row.asset_id)));
  });

  it('gives the same outcome when a snapshot whose devices are already indexed is scored again', async () => {
    const { db } = server.context;
    await db.transaction(async (connection) => {
      for (const table of ['security_policy_results', 'security_policy_failures', 'security_device_scores', 'security_profile_members', 'security_scores']) await connection.query(`delete from ${table} where discovery_id = $1`, [discoveryId]);
      await connection.query("update snapshot_assets set fields = fields - 'SecurityScore' - 'FailedPolicies' where discovery_id = $1 and entity = 'device'", [discoveryId]);
      await connection.query("update snapshot_index set ix_security_score = '{}', ix_security_score_first = null, ix_failed_policies = '' where discovery_id = $1 and entity = 'device'", [discoveryId]);
      await scoreSnapshot(connection, 1, discoveryId);
    });
    expect(await outcomeOf(db, discoveryId)).toEqual(published);
  });
});
