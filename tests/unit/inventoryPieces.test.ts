import { describe, expect, it } from 'vitest';
import { cellText, csvField, neutralizeFormula } from '../../src/server/inventory/exports.js';
import { accountName, deriveRelations } from '../../src/server/discovery/relations.js';
import type { MergedAsset } from '../../src/server/discovery/mergeAssets.js';
import { nextRunsOf, scheduleProblem } from '../../src/server/jobs/scheduler.js';
import { compileQuery } from '../../src/server/query/compileQuery.js';
import { parseQuery } from '../../src/core/query/index.js';

const asset = (id: string, fields: Record<string, unknown[]>): MergedAsset => ({ id, fields, specifics: {}, preferred: {}, recordKeys: [id], adapters: ['crowdstrike'], reasons: [] });

describe('export cells', () => {
  it.each(['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx'])('neutralizes a cell starting with a formula character: %j', (text) => {
    expect(neutralizeFormula(text)).toBe(`'${text}`);
  });

  it('leaves ordinary text alone and joins a field\'s values', () => {
    expect(neutralizeFormula('web-01')).toBe('web-01');
    expect(cellText(['10.0.0.1', '10.0.0.2'])).toBe('10.0.0.1, 10.0.0.2');
    expect(cellText(undefined)).toBe('');
    expect(cellText(['-5'])).toBe("'-5");
  });

  it('quotes CSV fields holding commas, quotes or line breaks', () => {
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('plain')).toBe('plain');
  });
});

describe('relations', () => {
  it('reads account names the way directories and agents write them', () => {
    expect(accountName('CORP\\JDoe')).toBe('jdoe');
    expect(accountName('jdoe@corp.example.com')).toBe('jdoe');
    expect(accountName('  ')).toBeNull();
  });

  it('links devices to the one user and the one host they name, and keeps unmatched names by name', () => {
    const devices = [
      asset('d1', { Hostname: ['ws-1'], LastUsedUsers: ['CORP\\jdoe', 'CORP\\ghost'] }),
      asset('d2', { Hostname: ['vm-1'], ParentHost: ['SRV-1.corp.example.com'] }),
      asset('d3', { Hostname: ['srv-1'] }),
    ];
    const users = [asset('u1', { Username: ['jdoe'] }), asset('u2', { Email: ['ann@example.com'] }), asset('u3', { Email: ['ann@other.example.com'] })];
    expect(deriveRelations(devices, users)).toEqual([
      { kind: 'device-user', relation: 'last used by', deviceAsset: 'd1', relatedAsset: 'u1', relatedName: 'CORP\\jdoe', adapters: ['crowdstrike'] },
      { kind: 'device-user', relation: 'last used by', deviceAsset: 'd1', relatedAsset: null, relatedName: 'CORP\\ghost', adapters: ['crowdstrike'] },
      { kind: 'device-device', relation: 'runs on', deviceAsset: 'd2', relatedAsset: 'd3', relatedName: 'SRV-1.corp.example.com', adapters: ['crowdstrike'] },
    ]);
    // An account two users share ("ann") names neither of them.
    expect(deriveRelations([asset('d4', { LastUsedUsers: ['ann'] })], users)[0].relatedAsset).toBeNull();
  });

  it('links a device to the switch it is plugged into with its port and VLAN, and to its access point with its VLAN', () => {
    const devices = [
      asset('sw', { Hostname: ['cat9k-access-1'] }),
      asset('ap', { Hostname: ['AP-Lobby'] }),
      asset('ws', { Hostname: ['ws-0001'], ConnectedSwitch: ['cat9k-access-1'], SwitchPort: ['GigabitEthernet1/0/2'], Vlan: ['10'] }),
      asset('phone', { Hostname: ['pixel-8'], AccessPoint: ['AP-Lobby'], Vlan: ['20'] }),
    ];
    expect(deriveRelations(devices, [])).toEqual([
      { kind: 'device-device', relation: 'plugged into switch', deviceAsset: 'ws', relatedAsset: 'sw', relatedName: 'cat9k-access-1', adapters: ['crowdstrike'], port: 'GigabitEthernet1/0/2', vlan: '10' },
      { kind: 'device-device', relation: 'associated with access point', deviceAsset: 'phone', relatedAsset: 'ap', relatedName: 'AP-Lobby', adapters: ['crowdstrike'], port: null, vlan: '20' },
    ]);
  });
});

describe('schedules', () => {
  it('lists the next start times in the schedule\'s time zone, and none when it is off', () => {
    const from = new Date('2026-11-22T12:00:00Z');
    expect(nextRunsOf({ enabled: true, cron: '0 2 * * *', timezone: 'Europe/Berlin' }, 2, from)).toEqual(['2026-11-23T01:00:00.000Z', '2026-11-24T01:00:00.000Z']);
    expect(nextRunsOf({ enabled: false, cron: '0 2 * * *', timezone: 'UTC' }, 2, from)).toEqual([]);
  });

  it('names the problem of an expression or time zone that cannot be scheduled', () => {
    expect(scheduleProblem({ enabled: true, cron: '0 25 * * *', timezone: 'UTC' })).toMatchObject({ field: 'cron' });
    expect(scheduleProblem({ enabled: true, cron: '0 2 * * *', timezone: 'Nowhere/Special' })).toMatchObject({ field: 'timezone' });
    expect(scheduleProblem({ enabled: true, cron: '*/15 * * * 1-5', timezone: 'America/New_York' })).toBeNull();
  });
});

describe('query bounds', () => {
  it('refuses long regular expressions and huge trees before they reach the database', () => {
    expect(() => compileQuery(parseQuery(`Hostname = /${'a'.repeat(201)}/`), { firstParameter: 1 })).toThrow();
    const huge = Array.from({ length: 120 }, (_, index) => `Hostname = h${index}`).join(' OR ');
    expect(() => compileQuery(parseQuery(huge), { firstParameter: 1 })).toThrow();
    expect(compileQuery(parseQuery('Hostname = /^web-[0-9]+$/'), { firstParameter: 1 }).params).toEqual(['Hostname', '^web-[0-9]+$']);
  });
});
