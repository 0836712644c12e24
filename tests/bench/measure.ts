import { performance } from 'node:perf_hooks';

/** p50 and p95 of durations in milliseconds, rounded to hundredths. */
export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (fraction: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))].toFixed(2));
  return { p50_ms: at(0.5), p95_ms: at(0.95) };
}

/** Durations of `runs` calls of `work`; a work that answers a number measured its own duration (setup excluded). */
export async function time(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const measured = await work();
    samples.push(typeof measured === 'number' ? measured : performance.now() - started);
  }
  return samples;
}
