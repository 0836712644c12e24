import { describe, expect, it } from 'vitest';
import { flattenFields, normalizeRecord } from '../../src/server/discovery/normalize.js';

describe('normalizing fetched records', () => {
  it('flattens nested values into dotted fields of de-duplicated, trimmed scalars', () => {
    const fields = flattenFields({
      Hostname: ' ws-1 ', InstalledSoftware: [{ SoftwareName: '7-Zip' }, { SoftwareName: 'Chrome' }, { SoftwareName: '7-Zip' }],
      IpAddresses: ['10.0.0.1', null, ''], LastSeen: new Date('2026-11-01T00:00:00Z'), Empty: [], Nothing: null,
    });
    expect(fields).toEqual({ Hostname: ['ws-1'], 'InstalledSoftware.SoftwareName': ['7-Zip', 'Chrome'], IpAddresses: ['10.0.0.1'], LastSeen: ['2026-11-01T00:00:00.000Z'] });
  });

  it('keeps the raw record under Specifics.<adapter>, bounded in depth and in field count', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 'too deep' } } } } } } }, shallow: 1 };
    const wide = Object.fromEntries(Array.from({ length: 600 }, (_, index) => [`field${index}`, index]));
    const fields = normalizeRecord({ entity: 'device', fields: { Hostname: 'ws-1' }, raw: { ...deep, ...wide } }, 'crowdstrike');
    expect(fields.Hostname).toEqual(['ws-1']);
    expect(fields['Specifics.crowdstrike.shallow']).toEqual([1]);
    expect(Object.keys(fields).some((field) => field.endsWith('.h'))).toBe(false);
    expect(Object.keys(fields).filter((field) => field.startsWith('Specifics.'))).toHaveLength(500);
  });
});
