import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { flattenFields, normalizeRecord } from '../../src/server/discovery/normalize.js';
import { recordKeyFor } from '../../src/server/discovery/recordKeys.js';

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

describe('record keys', () => {
  const fetched = (raw: Record<string, unknown>, fields: Record<string, unknown> = {}) => ({ entity: 'user' as const, fields, raw });

  it("use the vendor's own id, also when the vendor wraps it with its display value", () => {
    expect(recordKeyFor(7, fetched({ device_id: '4f2a' }), 0)).toBe('7:user:4f2a');
    expect(recordKeyFor(5, fetched({ sys_id: { value: '9d3c', display_value: '9d3c' } }, { Email: 'it-team@corp.example.com' }), 3)).toBe('5:user:9d3c');
  });

  it('fall back to the strongest identifying field, then to the position', () => {
    expect(recordKeyFor(5, fetched({ name: 'x' }, { Email: ['jdoe@corp.example.com'] }), 3)).toBe('5:user:jdoe@corp.example.com');
    expect(recordKeyFor(5, fetched({}), 3)).toBe('5:user:#3');
  });

  it('keep an id too long for a key as its SHA-256, the same in every discovery', () => {
    const long = 'x'.repeat(5_000);
    expect(recordKeyFor(5, fetched({ id: long }), 0)).toBe(`5:user:sha256:${createHash('sha256').update(long).digest('hex')}`);
    expect(recordKeyFor(5, fetched({ id: 'y'.repeat(256) }), 0)).toBe(`5:user:${'y'.repeat(256)}`);
  });
});
