import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeDeviceFields } from '../../src/core/normalization/index.js';

// A labelled corpus of OS, manufacturer, model and category strings as Intune, Entra, Jamf, CrowdStrike,
// SentinelOne, Defender, ServiceNow, Lansweeper, osquery and nmap write them, with the values normalization must give.
type Entry = { source: string; fields: Record<string, string>; expect: Record<string, string> };
const corpus = JSON.parse(readFileSync(new URL('../fixtures/normalization/corpus.json', import.meta.url), 'utf8')) as { entries: Entry[] };

/** Per field: how many expected values the corpus holds, and which normalization got wrong. */
function measure() {
  const results = new Map<string, { total: number; misses: string[] }>();
  for (const entry of corpus.entries) {
    const fields = Object.fromEntries(Object.entries(entry.fields).map(([field, value]) => [field, [value]]));
    normalizeDeviceFields(fields);
    for (const [field, expected] of Object.entries(entry.expect)) {
      const result = results.get(field) ?? { total: 0, misses: [] };
      results.set(field, result);
      result.total += 1;
      const actual = fields[field]?.[0];
      if (actual !== expected) result.misses.push(`${entry.source} ${JSON.stringify(entry.fields)}: ${field} ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
    }
  }
  return results;
}

// The goals, per field (OS.Type and the manufacturer allow no miss).
const goals: Record<string, number> = {
  'OS.Type': 1, 'OS.Distribution': 0.99, 'OS.Version': 0.99, 'OS.Build': 0.99, 'OS.Edition': 0.99, 'OS.Architecture': 0.99, DeviceManufacturer: 1, Category: 0.98,
};

describe('the normalization corpus', () => {
  const results = measure();

  it('holds at least 300 real strings from the ten sources the issue names', () => {
    const strings = new Set(corpus.entries.flatMap((entry) => Object.values(entry.fields)));
    expect(strings.size).toBeGreaterThanOrEqual(300);
    const sources = new Set(corpus.entries.map((entry) => entry.source));
    for (const source of ['intune', 'entra', 'jamf', 'crowdstrike', 'sentinelone', 'defender', 'servicenow', 'lansweeper', 'osquery', 'nmap']) expect(sources).toContain(source);
  });

  it.each(Object.entries(goals))('normalizes %s to its goal', (field, goal) => {
    const result = results.get(field)!;
    const accuracy = (result.total - result.misses.length) / result.total;
    console.log(`${field}: ${result.total - result.misses.length}/${result.total} = ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy, result.misses.join('\n')).toBeGreaterThanOrEqual(goal);
  });
});
