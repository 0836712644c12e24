import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeWidget, widgetSettingsOf } from '../../src/server/dashboards/computeWidget.js';
import type { SourceRecord } from '../../src/server/discovery/correlation/correlate.js';
import { addFleetConnections, fleetRuntime, runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// Two real discoveries over a fleet whose servers change between them: some are reported only by the first (they
// leave the "Servers" profile), some only by the second (they join it). The profile's members and history, and the
// security-score widgets, are read from what the publishes stored: no field of the snapshots is written by hand.

const { fleet, runtime } = fleetRuntime(200, 33);
const allRecords = [...fleet.records];
const domain = '.corp.example.com';

/** The fleet's devices whose every source names them srv-…, by the fleet's own truth (device id → its records). */
function serverDevices(): Map<string, SourceRecord[]> {
  const byDevice = new Map<string, SourceRecord[]>();
  for (const record of allRecords) {
    const device = fleet.truth.get(record.key)!;
    byDevice.set(device, [...(byDevice.get(device) ?? []), record]);
  }
  const hostnameOf = (record: SourceRecord) => String(record.fields.Hostname ?? '').toLowerCase();
  return new Map([...byDevice].filter(([, records]) => records.every((record) => hostnameOf(record).startsWith('srv-'))).sort(([left], [right]) => left.localeCompare(right)));
}

/** The host name a member row shows, as the fleet names the device (no domain, any case). */
const shortName = (hostname: string | null) => (hostname ?? '').toLowerCase().replace(domain, '');

type Member = { asset_id: string; hostname: string | null; score: number | null };
type Members = { index_id: number; count: number; results: Member[]; history: { index_id: number; devices: number; score: number | null; added: number | null; removed: number | null }[] };
type ScoreRow = { asset_id: string; score: number };

describe.each(engines)('an asset profile across snapshots, and the score widgets, on %s', (engine) => {
  let server: TestServer;
  let profileId: number;
  let first: number;
  let second: number;
  const leaving: string[] = [];
  const joining: string[] = [];
  const call = (method: string, url: string, body?: object) => server.request(method, url, { token: server.adminToken, body });
  const members = async (index?: number) => (await call('GET', `/securitymanager/asset-profiles/${profileId}/members?size=500${index ? `&index_id=${index}` : ''}`)).body as Members;
  const count = async (query: string) => (await call('POST', '/devices/devices', { query, size: 1 })).body.count as number;

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: runtime });
    await addFleetConnections(server);
    const servers = serverDevices();
    expect(servers.size).toBeGreaterThan(8);
    const names = [...servers.keys()];
    leaving.push(...names.slice(0, 3));
    joining.push(...names.slice(3, 5));
    const reportedWithout = (absent: string[]) => allRecords.filter((record) => !absent.includes(fleet.truth.get(record.key)!));

    const profile = await call('POST', '/securitymanager/asset-profiles', { name: 'Servers', owner: 'Ops', criticality: 3, query: 'Hostname = srv-*' });
    expect(profile.status).toBe(201);
    profileId = profile.body.id;
    expect((await call('POST', '/securitymanager/security-policies/starter', { enable: true })).status).toBe(200);

    fleet.records.splice(0, fleet.records.length, ...reportedWithout(joining));
    first = (await runDiscoveryAndWait(server)).id;
    fleet.records.splice(0, fleet.records.length, ...reportedWithout(leaving));
    second = (await runDiscoveryAndWait(server)).id;
  }, 240_000);
  afterAll(async () => {
    fleet.records.splice(0, fleet.records.length, ...allRecords);
    await server.stop();
  });

  it('reports the devices that joined and left the profile, and its members in each snapshot', async () => {
    const before = await members(first);
    const after = await members();
    expect(before.index_id).toBe(first);
    expect(after.index_id).toBe(second);
    // Its members are what the inventory's own query answers for the latest snapshot.
    expect(after.count).toBe(await count('Hostname = srv-*'));
    expect(after.results).toHaveLength(after.count);
    expect(before.results).toHaveLength(before.count);

    const assetsOf = (list: Members) => new Set(list.results.map((member) => member.asset_id));
    const joined = after.results.filter((member) => !assetsOf(before).has(member.asset_id));
    const left = before.results.filter((member) => !assetsOf(after).has(member.asset_id));
    // Every device that joined is one the second discovery alone reported, and each of those joined (the same for
    // those that left); a device the correlation kept as two assets counts twice, in the inventory as here.
    const namesOf = (device: string) => new Set(allRecords.filter((record) => fleet.truth.get(record.key) === device).map((record) => shortName(String(record.fields.Hostname))));
    const deviceOf = (member: Member, devices: string[]) => devices.find((device) => namesOf(device).has(shortName(member.hostname)));
    expect(joined.every((member) => deviceOf(member, joining))).toBe(true);
    expect(new Set(joined.map((member) => deviceOf(member, joining)))).toEqual(new Set(joining));
    expect(left.every((member) => deviceOf(member, leaving))).toBe(true);
    expect(new Set(left.map((member) => deviceOf(member, leaving)))).toEqual(new Set(leaving));

    // The history: one row per scored snapshot, the second with the counts of devices that joined and left.
    expect(after.history.map((row) => row.index_id)).toEqual([first, second]);
    expect(after.history[0]).toMatchObject({ devices: before.count, added: null, removed: null });
    expect(after.history[1]).toMatchObject({ devices: after.count, added: joined.length, removed: left.length });
    // Each member's score is its device's, as the device's explanation gives it.
    const [member] = after.results;
    expect((await call('GET', `/securitymanager/devices/${member.asset_id}/score`)).body.score).toBe(member.score);
  });

  it('computes the security-score widgets from the scores the publish stored', async () => {
    const stored = await server.context.db.query<ScoreRow>('select asset_id, score from security_device_scores where discovery_id = $1 order by score, asset_id', [second]);
    const devices = await count('');
    expect(stored).toHaveLength(devices);
    expect(new Set(stored.map((row) => row.score)).size).toBeGreaterThan(1);
    const average = Math.round((10 * stored.reduce((sum, row) => sum + row.score, 0)) / stored.length) / 10;
    const below50 = stored.filter((row) => row.score < 50).length;

    const context = { db: server.context.db, companyId: 1, userId: null, now: new Date() };
    const widget = await computeWidget(context, widgetSettingsOf({ kind: 'security_score' }));
    expect(widget).toMatchObject({ index_id: second, total: devices });
    expect(widget.rows.map((row) => [row.label, row.value])).toEqual([['Average score', average], ['Devices scored', stored.length], ['Scoring below 50', below50]]);
    // Each figure opens the devices it counts.
    for (const row of widget.rows.slice(1)) expect(await count(String(row.query))).toBe(row.value);

    const lowest = await computeWidget(context, widgetSettingsOf({ kind: 'lowest_security_score', limit: 5 }));
    expect(lowest.rows.map((row) => row.SecurityScore)).toEqual(stored.slice(0, 5).map((row) => row.score));

    // Narrowed to the profile's query, the widget averages the profile's members only.
    const servers = (await members()).results;
    const narrowed = await computeWidget(context, widgetSettingsOf({ kind: 'security_score', query: 'Hostname = srv-*' }));
    expect(narrowed.rows[1]).toMatchObject({ label: 'Devices scored', value: servers.length });
    expect(narrowed.rows[0].value).toBe(Math.round((10 * servers.reduce((sum, row) => sum + row.score!, 0)) / servers.length) / 10);
  });
});
