import { describe, expect, it } from 'vitest';
import { generateLabelledFleet } from '../../src/server/demo/fleet.js';
import { correlate, type SourceRecord } from '../../src/server/discovery/correlation/correlate.js';
import { deviceCorrelationRules } from '../../src/server/discovery/correlation/deviceRules.js';
import { identifyingPart, normalizeMac, normalizeSerial } from '../../src/server/discovery/correlation/identifiers.js';
import { defaultRecommendationPolicy, deviceMergeRecommendations } from '../../src/server/discovery/correlation/recommendations.js';
import { scoreClusters } from '../../src/server/discovery/correlation/scoring.js';
import { userCorrelationRules } from '../../src/server/discovery/correlation/userRules.js';

let sequence = 0;
function record(adapter: string, fields: Record<string, unknown>, connectionId = adapter.length): SourceRecord {
  sequence += 1;
  return { key: `${connectionId}:${adapter}-${sequence}`, adapter, connectionId, fields };
}
const devices = (records: SourceRecord[], manual = {}) => correlate(records, deviceCorrelationRules(records), manual);
const groupsOf = (records: SourceRecord[], manual = {}) => devices(records, manual).map((cluster) => cluster.records.sort());

describe('identifiers', () => {
  it('drops placeholder serial numbers and keeps real ones upper-cased', () => {
    for (const junk of ['To Be Filled By O.E.M.', '0', 'Default string', '00000000', 'N/A', ' ', 'AAAAAAAA']) expect(normalizeSerial(junk)).toBeNull();
    expect(normalizeSerial(' c02xk1abjg5h ')).toBe('C02XK1ABJG5H');
  });

  it('normalizes MACs and drops randomized, multicast, virtual and empty ones', () => {
    expect(normalizeMac('00-1A-2B-3C-4D-5E')).toBe('00:1a:2b:3c:4d:5e');
    expect(normalizeMac('001a.2b3c.4d5e')).toBe('00:1a:2b:3c:4d:5e');
    for (const unusable of ['da:4d:9b:d6:04:01', '01:00:5e:00:00:fb', '00:50:56:ab:cd:ef', '00:00:00:00:00:00', 'ff:ff:ff:ff:ff:ff', 'not a mac']) expect(normalizeMac(unusable)).toBeNull();
  });
});

describe('device correlation', () => {
  it('merges records with one serial number and says why', () => {
    const edr = record('crowdstrike', { Hostname: 'ws-1', SerialNumber: 'C02XK1ABJG5H' });
    const cmdb = record('servicenow', { Hostname: 'old-name', SerialNumber: 'c02xk1abjg5h' });
    const [cluster] = devices([edr, cmdb]);
    expect(cluster.records).toHaveLength(2);
    expect(cluster.reasons).toEqual([{ rule: 'serial_number', value: 'C02XK1ABJG5H', records: [edr.key, cmdb.key] }]);
  });

  it('merges on a shared hardware MAC and on a fully qualified name', () => {
    const records = [
      record('crowdstrike', { Hostname: 'lt-7', MacAddresses: ['3C-D9-2B-BA-82-BB'] }),
      record('qualys', { Hostname: 'lt-7.corp.example.com', MacAddresses: ['3c:d9:2b:ba:82:bb'] }),
      record('active-directory', { Hostname: 'LT-7', Domain: 'corp.example.com' }),
    ];
    expect(groupsOf(records)).toHaveLength(1);
  });

  it('never merges on a host name alone, but recommends the merge with a score and reasons', () => {
    const left = record('active-directory', { Hostname: 'db-1', IpAddresses: ['10.0.0.5'], 'OS.Type': 'Linux' });
    const right = record('microsoft-intune', { Hostname: 'DB-1', IpAddresses: ['10.0.0.5'], 'OS.Type': 'linux' });
    const clusters = devices([left, right]);
    expect(clusters).toHaveLength(2);
    expect(deviceMergeRecommendations(clusters, [left, right])).toEqual([
      { clusters: [0, 1], score: 0.9, reasons: ['same host name "db-1"', 'a shared IP address', 'the same operating system'] },
    ]);
  });

  it('recommends only the weak matches and scores the advanced configuration asks for', () => {
    const pair = (ip: string, os: string) => [record('active-directory', { Hostname: 'app-1', IpAddresses: ['10.0.0.9'], 'OS.Type': 'Linux' }), record('qualys', { Hostname: 'app-1', IpAddresses: [ip], 'OS.Type': os })];
    const scoresOf = (records: SourceRecord[], policy: Partial<typeof defaultRecommendationPolicy>) =>
      deviceMergeRecommendations(devices(records), records, [], { ...defaultRecommendationPolicy, ...policy }).map((recommendation) => recommendation.score);
    const nameOnly = pair('10.0.0.10', 'Windows');
    const nameAndIp = pair('10.0.0.9', 'Windows');
    expect(scoresOf(nameOnly, {})).toEqual([0.5]);
    expect(scoresOf(nameOnly, { matches: ['host_name_ip', 'host_name_ip_os'] })).toEqual([]);
    expect(scoresOf(nameAndIp, { matches: ['host_name_ip'] })).toEqual([0.75]);
    expect(scoresOf(nameAndIp, { minimumScore: 0.8 })).toEqual([]);
    // A name shared by more devices than the limit is generic.
    const three = [...nameOnly, record('servicenow', { Hostname: 'app-1' })];
    expect(scoresOf(three, { genericNameLimit: 2 })).toEqual([]);
    expect(scoresOf(three, { genericNameLimit: 3 })).toHaveLength(3);
  });

  it('vetoes a merge of two machines with different serial numbers behind one reused host name', () => {
    const retired = record('servicenow', { Hostname: 'ws-9', Domain: 'corp.example.com', SerialNumber: 'OLDSERIAL1' });
    const current = record('crowdstrike', { Hostname: 'ws-9', Domain: 'corp.example.com', SerialNumber: 'NEWSERIAL2', LastSeen: '2026-11-20T00:00:00Z' });
    const directory = record('active-directory', { Hostname: 'WS-9', Domain: 'corp.example.com', LastSeen: '2026-11-21T00:00:00Z' });
    expect(groupsOf([retired, current, directory])).toEqual([[retired.key], [current.key, directory.key].sort()].sort((a, b) => a.length - b.length));
    expect(deviceMergeRecommendations(devices([retired, current]), [retired, current])).toEqual([]);
  });

  it('recommends no merge of two assets whose agent ids of one adapter differ (two SBOM images of one registry)', () => {
    const [one, two] = ['sha256:0e11', 'sha256:7f42'].map((digest, index) => record('sbom', { Hostname: `registry.corp.example.com/payments/api:2.${index}.0`, AgentId: digest, 'OS.Type': 'Linux' }));
    expect(deviceMergeRecommendations(devices([one, two]), [one, two])).toEqual([]);
    // Agent ids of different adapters say nothing of each other: the shared name is still worth a look.
    const [edr, directory] = [record('crowdstrike', { Hostname: 'db-2', AgentId: 'aid-1' }), record('sentinelone', { Hostname: 'DB-2', AgentId: 'uuid-9' })];
    expect(deviceMergeRecommendations(devices([edr, directory]), [edr, directory])).toHaveLength(1);
  });

  it('does not merge cloned VMs on their shared serial, nor laptops on a shared docking-station MAC', () => {
    const clones = ['vm-1', 'vm-2', 'vm-3'].map((name) => record('crowdstrike', { Hostname: name, SerialNumber: 'VMware-42 1a2b3c4d' }, 2));
    const docked = ['lt-1', 'lt-2'].map((name, index) => record('crowdstrike', { Hostname: name, SerialNumber: `SERIAL000${index}`, MacAddresses: ['00:e0:4c:68:00:01'] }, 2));
    expect(groupsOf([...clones, ...docked])).toHaveLength(5);
  });

  it('applies manual merges over vetoes and manual splits over strong identifiers', () => {
    const left = record('crowdstrike', { Hostname: 'a', SerialNumber: 'SERIALAAAA' });
    const right = record('servicenow', { Hostname: 'b', SerialNumber: 'SERIALBBBB' });
    expect(groupsOf([left, right], { merges: [[left.key, right.key]] })).toHaveLength(1);
    const edr = record('crowdstrike', { Hostname: 'c', SerialNumber: 'SERIALCCCC' });
    const cmdb = record('servicenow', { Hostname: 'c', SerialNumber: 'SERIALCCCC' });
    expect(groupsOf([edr, cmdb], { splits: [[edr.key, cmdb.key]] })).toHaveLength(2);
  });

  it.each([2_000, 10_000])('reaches precision and recall of at least 0.99 on a labelled fleet of %i devices', (count) => {
    const fleet = generateLabelledFleet(count, 7);
    const { precision, recall } = scoreClusters(devices(fleet.records), fleet.truth);
    expect(precision).toBeGreaterThanOrEqual(0.99);
    expect(recall).toBeGreaterThanOrEqual(0.99);
  });
});

describe('user correlation', () => {
  it.each([2_000])('reaches precision and recall of at least 0.99 on the people of a labelled fleet of %i devices', (count) => {
    const fleet = generateLabelledFleet(count, 7);
    const { precision, recall } = scoreClusters(correlate(fleet.users, userCorrelationRules()), fleet.userTruth);
    expect(precision).toBeGreaterThanOrEqual(0.99);
    expect(recall).toBeGreaterThanOrEqual(0.99);
  });

  const users = (records: SourceRecord[]) => correlate(records, userCorrelationRules()).map((cluster) => cluster.records.length).sort();

  it('merges on email or user principal name, and on the account name within its domain', () => {
    expect(users([record('okta', { Username: 'jdoe', Email: 'Jane.Doe@example.com' }), record('azure-entra', { UserPrincipalName: 'jane.doe@example.com' })])).toEqual([2]);
    expect(users([record('active-directory', { Username: 'jdoe', Domain: 'CORP.example.com' }), record('crowdstrike', { Username: 'CORP\\jdoe' })])).toEqual([2]);
  });

  it('joins an HR person to the directory account by employee id, and by email where the HR system has no id', () => {
    // Workday's work address differs from the directory's mail: the employee id alone ties them.
    const hr = record('workday', { EmployeeId: 'E10042', Email: 'adele.vance@example.com', 'Employment.Status': 'terminated' });
    const directory = record('active-directory', { Username: 'adelev', Domain: 'CORP', EmployeeId: 'e10042', Email: 'AdeleV@corp.example.com', Enabled: true });
    const okta = record('okta', { Username: 'kim.nguyen', Email: 'kim.nguyen@example.com' });
    const bamboo = record('bamboohr', { Email: 'Kim.Nguyen@example.com', 'Employment.Status': 'active' });
    expect(users([hr, directory, okta, bamboo])).toEqual([2, 2]);
    const clusters = correlate([hr, directory, okta, bamboo], userCorrelationRules());
    const adapterOf = new Map([hr, directory, okta, bamboo].map((item) => [item.key, item.adapter]));
    expect(clusters.map((cluster) => cluster.records.map((key) => adapterOf.get(key)).sort()).sort()).toEqual([['active-directory', 'workday'], ['bamboohr', 'okta']]);
  });

  it('never merges two people with different employee ids', () => {
    expect(users([record('workday', { Email: 'shared@example.com', EmployeeId: '1001' }), record('okta', { Email: 'shared@example.com', EmployeeId: '1002' })])).toEqual([1, 1]);
  });
});

describe('identifying fields', () => {
  // A discovery holds only identifyingPart() of each record through correlation: it must decide exactly as the whole
  // records would (a rule reading a field missing from identifyingFields fails this).
  it('correlate devices, people and recommendations as the whole records do', () => {
    const fleet = generateLabelledFleet(3000, 11);
    const asSourced = (records: SourceRecord[]) => records.map((item) => ({ ...item, fields: Object.fromEntries(Object.entries(item.fields).map(([field, value]) => [field, [value].flat()])) }));
    const slim = (records: SourceRecord[]) => asSourced(records).map((item) => ({ ...item, fields: identifyingPart(item.fields) }));
    const [devicesWhole, devicesSlim] = [asSourced(fleet.records), slim(fleet.records)];
    const clusters = correlate(devicesWhole, deviceCorrelationRules(devicesWhole));
    expect(correlate(devicesSlim, deviceCorrelationRules(devicesSlim))).toEqual(clusters);
    expect(deviceMergeRecommendations(clusters, devicesSlim)).toEqual(deviceMergeRecommendations(clusters, devicesWhole));
    const [usersWhole, usersSlim] = [asSourced(fleet.users), slim(fleet.users)];
    expect(correlate(usersSlim, userCorrelationRules())).toEqual(correlate(usersWhole, userCorrelationRules()));
  });
});
