// Asynchronous export jobs (Tenable's vulnerability and asset exports, Splunk searches): start the job, poll its
// status with a growing interval, and hand over each chunk as soon as the vendor lists it. The wait is bounded: a
// job that never finishes fails the fetch with a message naming the job and its last status.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExportSpec } from './manifest.js';
import type { ResponseScope } from './response.js';
import type { HttpSession } from './session.js';
import { render, toText, truthy, type Scope } from './template.js';
import { TransportError } from './transport.js';

/** An export job that failed on the vendor's side or did not finish in time. */
export class ExportJobError extends Error {}

/** What templates see of the job: its id, and the last status answer's body. */
export type ExportJob = { id: string; status?: unknown };

export type ExportChunk = { job: ExportJob; chunk: unknown };

const defaults = { interval: 1, maxInterval: 30, maxWait: 3600 };

function chunkIds(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

async function wait(seconds: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(seconds * 1000, undefined, { signal });
  } catch (error) {
    throw new TransportError('the fetch was cancelled while waiting for an export job', 'cancelled', { cause: error });
  }
}

/**
 * Starts the export, then yields `{job, chunk}` for every chunk id the status answers list (each once, in the order
 * listed), while polling until `done`. The interval doubles from `interval_seconds` up to `max_interval_seconds`
 * while nothing new appears; the time spent waiting is bounded by `max_wait_seconds`.
 */
export async function* exportChunks(session: HttpSession, spec: ExportSpec, baseScope: Scope, label: string): AsyncGenerator<ExportChunk> {
  const started = await session.call(spec.start.request, baseScope, `${label}, export start`);
  const id = toText(render(spec.start.job_id, { ...baseScope, response: started }));
  if (!id) throw new ExportJobError(`${label}: the answer that starts the export holds no job id`);
  const job: ExportJob = { id };
  const { poll } = spec;
  const maxWait = poll.max_wait_seconds ?? defaults.maxWait;
  const maxInterval = poll.max_interval_seconds ?? defaults.maxInterval;
  let interval = poll.interval_seconds ?? defaults.interval;
  let waited = 0;
  const handed = new Set<string>();
  for (let round = 1; ; round += 1) {
    const response: ResponseScope = await session.call(poll.request, { ...baseScope, job }, `${label}, export ${id} status ${round}`);
    job.status = response.body;
    const scope = { ...baseScope, job, response };
    const status = poll.status ? toText(render(poll.status, scope)) : '';
    if (poll.failed && truthy(render(poll.failed, scope))) throw new ExportJobError(`${label}: the export job ${id} failed on the vendor's side${status ? ` (status ${status})` : ''}`);
    const done = truthy(render(poll.done, scope));
    let fresh = 0;
    for (const chunk of chunkIds(poll.chunks ? render(poll.chunks, scope) : undefined)) {
      const key = toText(chunk);
      if (handed.has(key)) continue;
      handed.add(key);
      fresh += 1;
      yield { job, chunk };
    }
    if (done) return;
    if (fresh) interval = poll.interval_seconds ?? defaults.interval;
    if (waited >= maxWait) {
      throw new ExportJobError(`${label}: the export job ${id} did not finish within ${maxWait} s of waiting (last status ${status || 'not done'}, ${handed.size} chunks fetched); the vendor may be busy: run the discovery again later or narrow the export`);
    }
    const pause = Math.min(interval, maxWait - waited);
    await wait(pause, session.signal);
    waited += pause;
    interval = Math.min(interval * 2, maxInterval);
  }
}
