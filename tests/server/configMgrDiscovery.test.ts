import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterEngine } from '../../src/server/adapters/engine.js';
import { createHttpEngine } from '../../src/server/adapters/http/httpEngine.js';
import { createAdapterRuntime } from '../../src/server/adapters/runtime.js';
import { starterPolicies } from '../../src/server/security/starterPolicies.js';
import { loopbackAllowed } from '../../tools/adapterKit/fixtureReplay.js';
import { startReplayServer, withReplayUrl, type ReplayFixture, type ReplayServer } from '../../tools/adapterKit/replayServer.js';
import { runDiscoveryAndWait } from './discoveryFleet.js';
import { engines, startTestServer, type TestServer } from './harness.js';

// Configuration Manager answers one WMI class at a time: discovery data, BIOS, computer system, OS, network adapters
// and BitLocker volumes each come as their own records, joined by the device's ResourceID. A discovery through the
// real HTTP engine (NTLM sign-in against the adapters' replay fixtures) must make one device of each ResourceID,
// with its software on it, and the BitLocker state of its OS drive must decide the starter policy "Disk encryption on".

const fixtureOf = (slug: string) => JSON.parse(readFileSync(new URL(`../../schemas/adapters/${slug}/fixtures/replay.json`, import.meta.url), 'utf8')) as ReplayFixture;
const diskEncryption = starterPolicies.find((policy) => policy.starter_id === 'cis-3.6-disk-encryption')!.query;

/** The HTTP engine as an installation that lets connections reach loopback (where the replay servers listen). */
function loopbackHttpEngine(): AdapterEngine {
  const http = createHttpEngine();
  return { ...http, fetch: (context) => http.fetch({ ...context, outbound: loopbackAllowed }) };
}

describe.each(engines)('Configuration Manager connections on %s', (engine) => {
  let server: TestServer;
  const replays: ReplayServer[] = [];
  const search = async (path: string, query: string, fields: string[]) => {
    const answer = await server.request('POST', path, { token: server.adminToken, body: { query, fields, size: 50, ordering: [{ field: fields[0] }] } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.results as Record<string, unknown[]>[];
  };
  // The displayed spelling is the one most sources give (FQDN or NetBIOS name): compare short names.
  const shortName = (device: Record<string, unknown[]>) => String(device.Hostname[0]).split('.')[0].toLowerCase();
  const hosts = async (query: string) => (await search('/devices/devices', query, ['Hostname'])).map(shortName).sort();

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { adapters: createAdapterRuntime({ http: loopbackHttpEngine() }) });
    for (const slug of ['sccm', 'mbam-sccm']) {
      const fixture = fixtureOf(slug);
      const replay = await startReplayServer(fixture.exchanges, { ntlm: fixture.ntlm });
      replays.push(replay);
      await server.context.db.query(
        'insert into connections (company_id, adapter, name, connector_id, config) values (1, $1, $2, (select id from connectors where company_id = 1 and is_default), $3)',
        [slug, `Replayed ${slug}`, JSON.stringify(withReplayUrl(fixture.config, replay.url))],
      );
    }
    expect(await runDiscoveryAndWait(server)).toMatchObject({ state: 'done' });
  });
  afterAll(async () => {
    await Promise.all(replays.map((replay) => replay.close()));
    await server.stop();
  });

  it('signed in with NTLM to both SMS Providers', () => {
    for (const replay of replays) expect(replay.ntlm!.signIns.length).toBeGreaterThanOrEqual(1);
    for (const replay of replays) expect(replay.ntlm!.refusals).toEqual([]);
  });

  it('makes one device of each ResourceID, with the facts of every class', async () => {
    const devices = await search('/devices/devices', 'Adapters = sccm', ['Hostname', 'SerialNumber', 'DeviceModel', 'OS.Type', 'MacAddresses', 'AgentId']);
    expect(devices.map((device) => [shortName(device), device.SerialNumber, device.DeviceModel, device['OS.Type'], device.AgentId]).sort()).toEqual([
      ['srv-sql01', ['VMware-42 1a 8b 3c 5d 6e 7f 80-91 a2 b3 c4 d5 e6 f7 08'], ['VMware7,1'], ['Windows'], ['16777222']],
      ['ws-0042', ['7HQ3XY2'], ['Latitude 7440'], ['Windows'], ['16777220']],
      ['ws-0043', ['PF3KL9QZ'], ['21HDS0KA00'], ['Windows'], ['16777221']],
    ]);
    expect(await hosts('Software.Name = /7-zip/i')).toEqual(['ws-0042']);
    const users = await search('/userinventory/users', 'Adapters = sccm', ['Username', 'Email']);
    expect(users.map((user) => user.Username[0]).sort()).toEqual(['asmith', 'jdoe', 'svc-sql']);
  });

  it('passes "Disk encryption on" for the devices whose OS drive BitLocker Management reports protected', async () => {
    expect(await hosts('Adapters = mbam-sccm')).toEqual(['ws-0101', 'ws-0102', 'ws-0103']);
    expect(await hosts(`Adapters = mbam-sccm AND (${diskEncryption})`)).toEqual(['ws-0101', 'ws-0103']);
    expect(await hosts(`Adapters = mbam-sccm AND NOT (${diskEncryption})`)).toEqual(['ws-0102']);
    // The data drive that is not encrypted stays queryable apart from the OS drive.
    expect(await hosts('Specifics.mbam-sccm.DataVolume.ProtectionStatus = 0')).toEqual(['ws-0103']);
  });
});
