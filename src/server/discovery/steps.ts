import { hostname } from 'node:os';
import type PgBoss from 'pg-boss';
import type { Queryable } from '../db/database.js';
import { jobSender } from '../jobs/queue.js';

/**
 * A discovery runs as steps that any worker process may take: one fetch per connection, then one publish
 * (correlate, merge, index, publish). Each step is a queue job; its `discovery_steps` row says which attempt owns it
 * and when that attempt last showed it was alive. A step whose worker stops showing it (killed, lost its machine) is
 * queued again for another worker; the attempt it was taken from finds itself superseded and stops writing.
 */
export const fetchStepQueue = 'discovery-fetch';
export const publishStepQueue = 'discovery-publish';
export const publishStep = 'publish';

export type StepJob = { discoveryId: number; step: string };
export type StepState = 'pending' | 'queued' | 'running' | 'done' | 'warning' | 'error';

/** How often a running attempt says it is alive, and how long without a word before its step is given away. */
export const heartbeatSeconds = 5;
export const staleAfterSeconds = 30;
/** Attempts a step gets (its first and the retries after its worker died or its database write failed). */
export const attemptsPerStep = 3;
// A pg-boss job outlives a dead worker until it expires; the step was long given to another worker by then.
const publishExpirySeconds = 4 * 60 * 60;

export const fetchStepOf = (connectionId: number) => `fetch:${connectionId}`;
export const connectionOfStep = (step: string) => Number(step.slice('fetch:'.length));

/** This process, as step rows name the worker that runs an attempt. */
export const workerName = `${hostname()}:${process.pid}`;

function jobOptions(step: string, connectionTimeoutSeconds: number, transaction: Queryable): PgBoss.SendOptions {
  const expireInSeconds = step === publishStep ? publishExpirySeconds : connectionTimeoutSeconds + 5 * 60;
  return { retryLimit: 0, expireInSeconds, db: jobSender(transaction) } as PgBoss.SendOptions;
}

/** Queues a step's job in the caller's transaction: the row says queued exactly when its job exists. */
async function queueStep(transaction: Queryable, queue: PgBoss, discoveryId: number, step: string, connectionTimeoutSeconds: number): Promise<void> {
  await transaction.query("update discovery_steps set state = 'queued', heartbeat_at = now() where discovery_id = $1 and step = $2", [discoveryId, step]);
  const data: StepJob = { discoveryId, step };
  await queue.send(step === publishStep ? publishStepQueue : fetchStepQueue, data, jobOptions(step, connectionTimeoutSeconds, transaction));
}

/** Writes the steps of a new discovery: a fetch per connection, in the connections' order. */
export async function planSteps(transaction: Queryable, discoveryId: number, connectionIds: number[]): Promise<void> {
  await transaction.query(
    "insert into discovery_steps (discovery_id, step, position, state) select $1, 'fetch:' || id, position, 'pending' from unnest($2::int[]) with ordinality as planned(id, position)",
    [discoveryId, connectionIds],
  );
}

export type Pace = { concurrency: number; connectionTimeoutSeconds: number };

/**
 * Moves a running discovery on, in the caller's transaction: queues pending fetches while fewer than `concurrency`
 * are under way, and queues the publish once every fetch has ended. The discovery's row is locked while it decides,
 * so two fetches ending at once cannot both queue the publish.
 */
export async function advance(transaction: Queryable, queue: PgBoss, discoveryId: number, pace: Pace): Promise<void> {
  const [discovery] = await transaction.query<{ status: string }>('select status from discoveries where id = $1 for update', [discoveryId]);
  if (discovery?.status !== 'running') return;
  const steps = await transaction.query<{ step: string; state: StepState }>('select step, state from discovery_steps where discovery_id = $1 order by position', [discoveryId]);
  const fetches = steps.filter((row) => row.step !== publishStep);
  const underway = fetches.filter((row) => row.state === 'queued' || row.state === 'running').length;
  const pending = fetches.filter((row) => row.state === 'pending');
  for (const row of pending.slice(0, Math.max(0, pace.concurrency - underway))) {
    await queueStep(transaction, queue, discoveryId, row.step, pace.connectionTimeoutSeconds);
  }
  if (underway === 0 && pending.length === 0 && !steps.some((row) => row.step === publishStep)) {
    await transaction.query("insert into discovery_steps (discovery_id, step, position, state) values ($1, $2, $3, 'pending')", [discoveryId, publishStep, steps.length + 1]);
    await queueStep(transaction, queue, discoveryId, publishStep, pace.connectionTimeoutSeconds);
  }
}

/**
 * One attempt's hold on its step: it says the attempt is alive every few seconds, and aborts `signal` the moment the
 * step turns out to have been given to another attempt.
 */
export class StepLease {
  private readonly superseded = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Queryable,
    readonly discoveryId: number,
    readonly step: string,
    readonly attempt: number,
  ) {
    this.timer = setInterval(() => void this.heartbeat(), heartbeatSeconds * 1000);
    this.timer.unref();
  }

  /**
   * Before work that cannot yield to the heartbeat (a long synchronous computation): the attempt counts as alive for
   * `seconds` more, so no process takes the step over while it computes. A worker that dies meanwhile is noticed
   * that much later.
   */
  async holdFor(seconds: number): Promise<void> {
    await this.db.query(
      "update discovery_steps set heartbeat_at = now() + make_interval(secs => $4) where discovery_id = $1 and step = $2 and attempt = $3 and state = 'running'",
      [this.discoveryId, this.step, this.attempt, seconds],
    );
  }

  /** Aborted when another attempt owns the step: stop fetching and writing. */
  get signal(): AbortSignal {
    return this.superseded.signal;
  }

  /** Throws when the step belongs to another attempt now (checked before each write). */
  throwIfSuperseded(): void {
    if (this.superseded.signal.aborted) throw new Error(`Step ${this.step} of discovery ${this.discoveryId} was given to another worker.`);
  }

  private async heartbeat(): Promise<void> {
    // A failed heartbeat (the database unreachable a moment) is not a lost step: the next one tries again.
    const kept = await this.db
      .query("update discovery_steps set heartbeat_at = greatest(heartbeat_at, now()) where discovery_id = $1 and step = $2 and attempt = $3 and state = 'running' returning 1", [this.discoveryId, this.step, this.attempt])
      .catch(() => null);
    if (kept && !kept.length) this.superseded.abort();
  }

  /** Ends the attempt with the step's final state, in the caller's transaction; false when it was superseded. */
  async finish(transaction: Queryable, state: 'done' | 'warning' | 'error'): Promise<boolean> {
    const owned = await transaction.query(
      "update discovery_steps set state = $4, heartbeat_at = null where discovery_id = $1 and step = $2 and attempt = $3 and state = 'running' returning 1",
      [this.discoveryId, this.step, this.attempt, state],
    );
    return owned.length === 1;
  }

  release(): void {
    clearInterval(this.timer);
  }
}

/** Takes a queued step for this process; null when the step is not queued (another attempt took it, or it ended). */
export async function claimStep(db: Queryable, job: StepJob): Promise<StepLease | null> {
  const [claimed] = await db.query<{ attempt: number }>(
    `update discovery_steps s set state = 'running', attempt = s.attempt + 1, worker = $3, heartbeat_at = now()
       from discoveries d
      where s.discovery_id = $1 and s.step = $2 and s.state = 'queued' and d.id = s.discovery_id and d.status = 'running'
      returning s.attempt`,
    [job.discoveryId, job.step, workerName],
  );
  return claimed ? new StepLease(db, job.discoveryId, job.step, claimed.attempt) : null;
}

/**
 * Gives a step whose attempt ended without finishing (its database write failed) another attempt, or, after its
 * last, answers false so the caller ends it as failed. Runs in the caller's transaction.
 */
export async function retryStep(transaction: Queryable, queue: PgBoss, lease: StepLease, pace: Pace): Promise<boolean> {
  if (lease.attempt >= attemptsPerStep) return false;
  const [owned] = await transaction.query("select 1 from discovery_steps where discovery_id = $1 and step = $2 and attempt = $3 and state = 'running' for update", [lease.discoveryId, lease.step, lease.attempt]);
  if (owned) await queueStep(transaction, queue, lease.discoveryId, lease.step, pace.connectionTimeoutSeconds);
  return true;
}

export type StaleStep = { discovery_id: number; step: string; attempt: number; position: number };

/**
 * Steps of running discoveries whose attempt stopped saying it is alive, taken over in the caller's transaction
 * (`for update skip locked`, so two processes reaping at once take each step once).
 */
export async function takeStaleSteps(transaction: Queryable): Promise<StaleStep[]> {
  return transaction.query<StaleStep>(
    `select s.discovery_id, s.step, s.attempt, s.position from discovery_steps s join discoveries d on d.id = s.discovery_id
      where s.state = 'running' and d.status = 'running' and s.heartbeat_at < now() - make_interval(secs => $1)
      order by s.discovery_id, s.position for update of s skip locked`,
    [staleAfterSeconds],
  );
}

/** Queues a stale step again for another worker (its job is sent in the caller's transaction). */
export function requeueStale(transaction: Queryable, queue: PgBoss, stale: StaleStep, pace: Pace): Promise<void> {
  return queueStep(transaction, queue, stale.discovery_id, stale.step, pace.connectionTimeoutSeconds);
}

/** Ends a fetch step that ran out of attempts as its connection's error, in the caller's transaction. */
export async function abandonFetch(transaction: Queryable, stale: StaleStep, message: string): Promise<void> {
  await transaction.query("update discovery_steps set state = 'error', heartbeat_at = null where discovery_id = $1 and step = $2", [stale.discovery_id, stale.step]);
  // Connections are listed in the progress in the order their steps were planned.
  await transaction.query(
    `update discoveries set progress = jsonb_set(jsonb_set(progress, array['connections', $2::text, 'state'], '"error"'), array['connections', $2::text, 'error'], to_jsonb($3::text))
      where id = $1`,
    [stale.discovery_id, stale.position - 1, message],
  );
}
