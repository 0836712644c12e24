import { recordActivity } from '../activities/activityLog.js';
import type { CoreContext } from '../context.js';
import type { Database, Queryable } from '../db/database.js';
import { outboundPolicyFor } from '../outbound/policy.js';
import { resolveSnapshot } from '../inventory/snapshots.js';
import { loadActionSettings } from './actionSettings.js';
import { actionRunners } from './actionRunners.js';
import { messageOf, type TargetResult } from './actionTypes.js';
import { loadAction, openParameters } from './actionStore.js';
import { logRunFailed, logRunFinished, logRunStarted } from './runEvents.js';
import { claimRun, type LeasedRun, type RunLease } from './runLeases.js';
import { resolveTargets } from './targets.js';
import type { Target } from './template.js';

import type { RunTrigger } from './runEvents.js';

export type { RunTrigger } from './runEvents.js';
export type NewRun = { companyId: number; actionId: number; trigger: RunTrigger; dryRun: boolean; discoveryId?: number | null; slot?: string | null; rerunOf?: number | null; userId?: number | null; username?: string };

const resultRowsPerInsert = 1000;

/** Records a queued run; null when the action already has its run for that snapshot or slot. */
export async function createRun(db: Queryable, run: NewRun): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(
    `insert into action_runs (company_id, action_id, trigger, dry_run, discovery_id, slot, rerun_of, started_by, started_by_name)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict do nothing returning id`,
    [run.companyId, run.actionId, run.trigger, run.dryRun, run.discoveryId ?? null, run.slot ?? null, run.rerunOf ?? null, run.userId ?? null, run.username ?? ''],
  );
  return row?.id ?? null;
}


async function writeResults(db: Queryable, runId: number, targets: Target[], results: TargetResult[]): Promise<void> {
  for (let start = 0; start < targets.length; start += resultRowsPerInsert) {
    const slice = targets.slice(start, start + resultRowsPerInsert);
    const rows = slice.map((target, index) => ({ asset_id: target.assetId, name: target.name.slice(0, 500), ...results[start + index] }));
    await db.query(
      `insert into action_run_results (run_id, asset_id, name, status, detail, output, exit_code)
       select $1, r.asset_id, r.name, r.status, coalesce(r.detail, ''), coalesce(r.output, ''), r."exitCode"
         from jsonb_to_recordset($2::jsonb) as r(asset_id text, name text, status text, detail text, output text, "exitCode" int)
       on conflict do nothing`,
      [runId, JSON.stringify(rows)],
    );
  }
}

/** Who, what and which assets (the run holds them): one activity per run, SSH commands under their own name. */
export async function recordRunActivity(db: Queryable, run: LeasedRun, type: string, status: string): Promise<void> {
  await recordActivity(db, {
    companyId: run.company_id, userId: run.started_by, username: run.started_by_name || `(${run.trigger})`,
    action: type === 'ssh_command' ? 'action.ssh_command' : `action.${run.dry_run ? 'dry_run' : 'run'}`,
    targetType: 'actions/runs', targetId: String(run.id), sourceIp: '', statusCode: status === 'done' ? 200 : 500,
  });
}

/** The assets "only new assets" leaves out: the targets of the action's previous finished run that acted. */
async function previousTargets(db: Queryable, actionId: number, runId: number): Promise<string[]> {
  const rows = await db.query<{ asset_id: string }>(
    `select asset_id from action_run_results where run_id = (
       select id from action_runs where action_id = $1 and id < $2 and not dry_run and status = 'done' order by id desc limit 1)`,
    [actionId, runId],
  );
  return rows.map((row) => row.asset_id);
}

/** The results and counts of an attempt that reached its end, written only while the run is still its own. */
async function finishRun(db: Database, lease: RunLease, targets: Target[], results: TargetResult[]): Promise<boolean> {
  const count = (wanted: string) => results.filter((result) => result.status === wanted).length;
  return db.transaction(async (transaction) => {
    if (!(await lease.holdForFinish(transaction))) return false;
    await writeResults(transaction, lease.run.id, targets, results);
    await transaction.query(
      "update action_runs set status = 'done', finished_at = now(), heartbeat_at = null, succeeded = $2, failed = $3, skipped = $4 where id = $1",
      [lease.run.id, count('succeeded'), count('failed'), count('skipped')],
    );
    return true;
  });
}

/**
 * Runs a queued run: resolves its targets over the snapshot (the discovery's, or the latest), lists them (dry run)
 * or hands them to the type's runner, and stores each target's result and the counts. Only a queued run is taken,
 * so a job delivered twice acts once; an attempt whose run was taken over meanwhile (its process was thought
 * stopped) writes nothing.
 */
export async function executeRun(context: CoreContext, runId: number): Promise<void> {
  const { db } = context;
  const lease = await claimRun(db, runId, context.config.actionRunStaleSeconds);
  if (!lease) return;
  try {
    await runAttempt(context, lease);
  } finally {
    lease.release();
  }
}

async function runAttempt(context: CoreContext, lease: RunLease): Promise<void> {
  const { db } = context;
  const { run } = lease;
  // A takeover is logged by the reaper that queued it; the run started once.
  if (run.attempt === 1) await logRunStarted(db, run);
  let type = '';
  try {
    const action = await loadAction(db, run.company_id, run.action_id);
    if (!action) throw new Error('The action was deleted.');
    type = action.document.type;
    const runner = actionRunners[type];
    if (!runner) throw new Error(`Unknown action type "${type}".`);
    const scope = action.document.scope;
    if (runner.entities && !runner.entities.includes(scope.entity)) throw new Error(`A ${type} action acts on ${runner.entities.join(', ')} only.`);
    const discoveryId = await resolveSnapshot(db, run.company_id, run.discovery_id);
    const only = run.rerun_of
      ? (await db.query<{ asset_id: string }>("select asset_id from action_run_results where run_id = $1 and status = 'failed'", [run.rerun_of])).map((row) => row.asset_id)
      : undefined;
    const except = scope.only_new && !run.rerun_of ? await previousTargets(db, run.action_id, run.id) : undefined;
    // Whoever started the run, its targets are what the action's owner (who last saved it) defined: `Query is <id>`
    // expands the saved queries that user may read.
    const targets = await resolveTargets(db, { companyId: run.company_id, userId: action.document.owner_id ?? null }, discoveryId, scope, { only, except });
    await db.query("update action_runs set targets = $2, discovery_id = $3 where id = $1 and attempt = $4 and status = 'running'", [run.id, targets.length, discoveryId, run.attempt]);
    const settings = await loadActionSettings(db, run.company_id);
    const acting = !run.dry_run && targets.length > 0;
    if (acting && !(await lease.startActing())) return;
    const results = !acting
      ? targets.map((): TargetResult => ({ status: 'planned', detail: 'Dry run: not acted on.' }))
      : await runner.run({
        context, companyId: run.company_id, actionId: run.action_id, actionName: action.document.name, parameters: openParameters(context.keys.secretsKey, action.document), settings, outbound: await outboundPolicyFor(db, context.config, run.company_id), discoveryId,
        runId: run.id, attempt: run.attempt, signal: lease.signal,
      }, targets);
    if (!(await finishRun(db, lease, targets, results))) return;
    const count = (wanted: string) => results.filter((result) => result.status === wanted).length;
    await logRunFinished(db, run, { targets: targets.length, succeeded: count('succeeded'), failed: count('failed'), skipped: count('skipped') });
    await db.query("delete from action_runs where company_id = $1 and created_at < now() - make_interval(days => $2) and status not in ('running', 'queued')", [run.company_id, settings.history_days]);
    await recordRunActivity(db, run, type, 'done');
  } catch (error) {
    const [owned] = await db.query(
      "update action_runs set status = 'error', finished_at = now(), heartbeat_at = null, error = $2 where id = $1 and attempt = $3 and status = 'running' returning 1",
      [run.id, messageOf(error).slice(0, 2000), run.attempt],
    );
    if (!owned) return;
    await logRunFailed(db, run, messageOf(error));
    await recordRunActivity(db, run, type, 'error');
  }
}
