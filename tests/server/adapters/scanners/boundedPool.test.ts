import { describe, expect, it } from 'vitest';
import { boundedPool } from '../../../../src/server/adapters/scanners/boundedPool.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the bounded pool', () => {
  it('never runs more than its concurrency at once and delivers every result', async () => {
    let running = 0;
    let peak = 0;
    const work = async (item: number) => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      running -= 1;
      return item * 2;
    };
    const results: number[] = [];
    for await (const result of boundedPool(Array.from({ length: 50 }, (_, index) => index), work, { concurrency: 4, signal: new AbortController().signal })) results.push(result);
    expect(peak).toBe(4);
    expect(results.sort((left, right) => left - right)).toEqual(Array.from({ length: 50 }, (_, index) => index * 2));
  });

  it('pulls items lazily, so an endless source is fine when the consumer stops', async () => {
    let pulled = 0;
    function* endless() {
      for (;;) {
        pulled += 1;
        yield pulled;
      }
    }
    const results: number[] = [];
    for await (const result of boundedPool(endless(), async (item) => item, { concurrency: 3, signal: new AbortController().signal })) {
      results.push(result);
      if (results.length === 10) break;
    }
    expect(pulled).toBeLessThanOrEqual(13);
  });

  it('rethrows a failed item after the others in flight have settled', async () => {
    const settled: number[] = [];
    const work = async (item: number) => {
      await tick();
      if (item === 2) throw new Error('item 2 failed');
      await tick();
      settled.push(item);
      return item;
    };
    const consume = async () => {
      for await (const _ of boundedPool([1, 2, 3], work, { concurrency: 3, signal: new AbortController().signal })) void _;
    };
    await expect(consume()).rejects.toThrow('item 2 failed');
    expect(settled.sort()).toEqual([1, 3]);
  });

  it('stops starting new work once aborted', async () => {
    const controller = new AbortController();
    let started = 0;
    const results: number[] = [];
    for await (const result of boundedPool(Array.from({ length: 100 }, (_, index) => index), async (item) => {
      started += 1;
      await tick();
      return item;
    }, { concurrency: 2, signal: controller.signal })) {
      results.push(result);
      if (results.length === 3) controller.abort();
    }
    expect(started).toBeLessThan(10);
  });
});
