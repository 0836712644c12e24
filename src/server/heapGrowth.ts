import { setFlagsFromString } from 'node:v8';

// How far V8 lets the JS heap grow past what was live at the last full collection before collecting again. By
// default it grows up to four times when a process allocates fast, which a discovery does: at 100k devices about
// 500 MB were live while the heap grew past 2 GB of mostly garbage (peak RSS 2.3 GB on PostgreSQL, 2.0 GB on
// PGlite). Half again as much keeps the peak near 1.1–1.2 GB on both engines at the same speed, and, unlike a cap on
// the heap's size, never fails a larger estate: the heap still grows with what is live.
const heapGrowingPercent = 50;

/** Bounds the JS heap's growth between full collections for this process (a V8 flag, read at each collection). */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
