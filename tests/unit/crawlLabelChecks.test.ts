import { describe, expect, it } from 'vitest';
import { displayVocabulary, visibleTextProblems } from '../e2e/crawl/labelChecks';

// The crawl's checks (tests/e2e/everyRoute.test.ts) on texts, without a browser: each must catch what it is for and
// let through what the console is meant to show.
const vocabulary = displayVocabulary();

describe("the crawl's label checks", () => {
  it('know the schemas: code keys and coded enum values, not human words', () => {
    expect(vocabulary.has('LastSeen')).toBe(true);
    expect(vocabulary.has('ca_certificate')).toBe(true);
    expect(vocabulary.has('rfc5424')).toBe(true);
    expect(vocabulary.has('us_government')).toBe(true);
    expect(vocabulary.has('Hostname')).toBe(false);
    expect(vocabulary.has('Name')).toBe(false);
  });

  it('flag raw keys and values, internal ids, foreign dates and float noise', () => {
    expect(visibleTextProblems(['LastSeen', 'rfc5424', '2:device:cb2bd678aa', 'Connection #1', '2026-11-20T10:00:00Z', '11/20/2026', '194062.91999999998'], vocabulary)).toEqual([
      'raw key or value: LastSeen', 'raw key or value: rfc5424', 'internal id: 2:device:cb2bd678aa', 'internal id: Connection #1',
      "date not in the console's format: 2026-11-20T10:00:00Z", "date not in the console's format: 11/20/2026", 'number with too many decimals: 194062.91999999998',
    ]);
  });

  it('let labels, console dates and formatted numbers through', () => {
    expect(visibleTextProblems(['Last seen', 'RFC 5424', 'CSV file', '20 November 2026, 10:00', '194,062.92 EUR', '10.0.0.1', 'Chrome 120.0.6099.129', '3 days ago'], vocabulary)).toEqual([]);
  });
});
