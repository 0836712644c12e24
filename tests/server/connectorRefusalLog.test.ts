import { describe, expect, it } from 'vitest';
import { RefusalLog } from '../../src/server/connectors/connectorEvents.js';

describe('the refusal log window', () => {
  it('admits the first refusal of a key per window, then the next one with the count left out', () => {
    const log = new RefusalLog(600_000);
    expect(log.admit('connector:7', 0)).toBe(0);
    expect(log.admit('connector:7', 1_000)).toBeNull();
    expect(log.admit('connector:7', 599_999)).toBeNull();
    // Another connector, or an address, has its own window.
    expect(log.admit('connector:8', 2_000)).toBe(0);
    expect(log.admit('address:10.0.0.9', 2_000)).toBe(0);
    expect(log.admit('connector:7', 600_000)).toBe(2);
    expect(log.admit('connector:7', 600_001)).toBeNull();
  });

  it('keeps a bounded number of keys, so tokens naming ever new connectors cannot grow it', () => {
    const log = new RefusalLog(600_000);
    for (let id = 0; id < 5000; id += 1) expect(log.admit(`connector:${id}`, 0)).toBe(0);
    // The earliest keys were forgotten: their next refusal is logged again.
    expect(log.admit('connector:0', 1)).toBe(0);
    expect(log.admit('connector:4999', 1)).toBeNull();
  });
});
