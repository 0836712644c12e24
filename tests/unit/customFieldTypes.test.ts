import { describe, expect, it } from 'vitest';
import { convertValue, inferType } from '../../src/server/adapters/custom/fieldTypes.js';
import { checkHeader, detectDelimiter, SampleError } from '../../src/server/adapters/custom/sampleFile.js';

describe('custom adapter field types', () => {
  it('infers the most specific type every non-empty value reads as', () => {
    expect(inferType(['1', '0', '42', ''])).toBe('integer');
    expect(inferType(['1', '2.5', '-3e2'])).toBe('number');
    expect(inferType(['yes', 'No', 'TRUE', 'n/a'])).toBe('boolean');
    expect(inferType(['2024-03-01', '2023-12-31T08:30:00Z', '24.11.2025'])).toBe('date');
    expect(inferType(['10.0.0.1', '10.0.0.2; 10.0.0.3', 'fe80::1'])).toBe('ip');
    expect(inferType(['00-1A-2B-3C-4D-5E', '001a.2b3c.4d5f', '001A2B3C4D60'])).toBe('mac');
    expect(inferType(['007', '042'])).toBe('string');
    expect(inferType(['10.0.0.1', 'web-01'])).toBe('string');
    expect(inferType(['', null, '-'])).toBe('string');
    expect(inferType([new Date('2024-01-01'), null])).toBe('date');
    expect(inferType([3, 4.5])).toBe('number');
    expect(inferType(['45.13.2025'])).toBe('string');
  });

  it('reads values as their column type, and keeps what does not read as written', () => {
    expect(convertValue('integer', '42')).toBe(42);
    expect(convertValue('integer', 'forty-two')).toBe('forty-two');
    expect(convertValue('number', ['1.5', '2'])).toEqual([1.5, 2]);
    expect(convertValue('boolean', 'Yes')).toBe(true);
    expect(convertValue('date', '24.11.2026')).toBe('2026-11-24T00:00:00.000Z');
    expect(convertValue('date', '2026-11-24')).toBe('2026-11-24T00:00:00.000Z');
    expect(convertValue('mac', '00-1A-2B-3C-4D-5E')).toBe('00:1a:2b:3c:4d:5e');
    expect(convertValue('string', 12)).toBe('12');
  });

  it('refuses a header with an empty or repeated column name, and finds the delimiter', () => {
    expect(checkHeader(['Host', 'IP', '', ''], 'line 1')).toEqual(['Host', 'IP']);
    expect(() => checkHeader(['Host', '', 'IP'], 'line 1')).toThrow(new SampleError('Column 2 of the header (line 1) has no name: every column needs one.'));
    expect(() => checkHeader(['Host', 'host'], 'line 1')).toThrow(/"host" appears twice/);
    expect(detectDelimiter('a;b;c')).toBe(';');
    expect(detectDelimiter('a\tb')).toBe('\t');
    expect(detectDelimiter('single')).toBe(',');
  });
});
