import type { AppContext } from '../../context.js';
import { actionRunners } from '../../actions/actionRunners.js';
import { queueActionRun } from '../../actions/actionJobs.js';
import { actionSettingsKind, defaultActionSettings, loadActionSettings } from '../../actions/actionSettings.js';
import { actionKind, loadAction, secretRuleOfParameters, type ActionDocument, type ActionScope } from '../../actions/actionStore.js';
import { parameterSchemaOf } from '../../actions/actionTypes.js';
import { ticketAdapters } from '../../actions/runners/ticketRunner.js';
import { sshCredentialKind } from '../../actions/sshCredentials.js';
import { jsonTemplateProblem } from '../../actions/template.js';
import { createRun } from '../../actions/runs.js';
import { previewScope, scopeQuery } from '../../actions/targets.js';
import { saveSettingsDocument } from '../../settings/settingsStore.js';
import type { Caller } from '../../identity/callers.js';
import { queryCondition } from '../../inventory/search.js';
import { resolveSnapshot } from '../../inventory/snapshots.js';
import { DomainError } from '../../errors.js';
import { detailError, fieldErrorsFromAjv, HttpError, notFound } from '../errors.js';
import { pageWindow, paginated, type ListQuery } from '../pagination.js';
import { callerOf, type RouteCatalogue } from '../routes.js';
import { validatorFor } from '../validators.js';
import { registerSealedDocuments } from '../../resources/sealedDocuments.js';

export const sshCommandPermission = 'workflows.run_sshcommand';

/** `{url: ["..."]}` → `{"parameters.url": ["..."]}`: a type's errors named under the action's field. */
// A run as the API answers it, with its attempt ("taken over once"); the lease's worker host and pid and its
// heartbeat stay the server's own.
const runColumns = `id, company_id, action_id, trigger, discovery_id, slot, dry_run, rerun_of, status, attempt, started_by, started_by_name,
  targets, succeeded, failed, skipped, error, created_at, started_at, finished_at`;

const underParameters = (errors: Record<string, string[]>) => Object.fromEntries(Object.entries(errors).map(([field, messages]) => [`parameters.${field}`, messages]));

/** The checks an action's schema cannot make: its type's parameters, its query, and what its parameters name. */
async function checkAction(context: AppContext, caller: Caller, document: ActionDocument): Promise<void> {
  if (document.type === 'ssh_command' && !caller.permissions.has(sshCommandPermission)) throw detailError(403, 'Only users who may run SSH commands may set up SSH command actions.', 'permission_denied');
  const validate = validatorFor(parameterSchemaOf(document.type));
  if (!validate(document.parameters)) throw new HttpError(400, underParameters(fieldErrorsFromAjv(validate.errors ?? [])));
  const parameters = document.parameters as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  if (document.type === 'webhook') {
    const problem = jsonTemplateProblem(String(parameters.body_template));
    if (problem) errors['parameters.body_template'] = [problem];
  }
  if (document.type === 'ssh_command') {
    const found = await context.db.query('select 1 from resources where kind = $1 and company_id = $2 and id = $3', [sshCredentialKind, caller.companyId, parameters.credential]);
    if (!found.length) errors['parameters.credential'] = [`Invalid pk "${parameters.credential}" - object does not exist.`];
  }
  if (document.type === 'ticket') {
    // One lookup, within the company: another company's connection is not found, and nothing about it (its adapter) is told.
    const [connection] = await context.db.query<{ adapter: string }>(
      'select adapter from connections where company_id = $1 and id = $2 and adapter = any($3::text[])', [caller.companyId, parameters.connection, ticketAdapters],
    );
    if (!connection) errors['parameters.connection'] = ['Choose a Jira or ServiceNow connection of this company.'];
    if (connection?.adapter === 'jira' && !parameters.project_key) errors['parameters.project_key'] = ['A Jira ticket needs the project key.'];
  }
  if (document.trigger === 'schedule') {
    try {
      new Intl.DateTimeFormat('en', { timeZone: document.timezone ?? 'UTC' });
    } catch {
      errors.timezone = [`Unknown time zone "${document.timezone}".`];
    }
  }
  try {
    await queryCondition(context.db, caller, scopeQuery(document.scope), 1);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    errors['scope.query'] = (error.body as Record<string, string[]>).query ?? ['The query cannot be read.'];
  }
  if (Object.keys(errors).length) throw new HttpError(400, errors);
}

type RunRow = { id: number; action_id: number; status: string; trigger: string; dry_run: boolean; targets: number; succeeded: number; failed: number; skipped: number; created_at: Date; finished_at: Date | null };

/** Actions, their runs and the action center's settings. */
export function registerActionRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  registerSealedDocuments(routes, context, {
    kind: actionKind, path: '/actions/actions', name: 'action', title: 'Action',
    permissions: { view: 'workflows.view_workflow', add: 'workflows.add_workflow', change: 'workflows.change_workflow', delete: 'workflows.delete_workflow' },
    search: ['name', 'description', 'type'],
    defaults: { description: '', enabled: true },
    // The secrets are the type's `x-secret` parameters, held to its URL; a document of an unknown type never reaches here (the schema's enum).
    secretRule: (document) => (typeof document.type === 'string' && document.type in actionRunners ? secretRuleOfParameters(document.type) : { secretFields: new Set(), destinationFields: new Map() }),
    check: (caller, document) => checkAction(context, caller, document as unknown as ActionDocument),
    extra: async (rows) => {
      const latest = await db.query<RunRow>(
        `select distinct on (action_id) id, action_id, status, trigger, dry_run, targets, succeeded, failed, skipped, created_at, finished_at
           from action_runs where action_id = any($1::int[]) order by action_id, id desc`,
        [rows.map((row) => row.id)],
      );
      return new Map(rows.map((row) => [row.id, { last_run: latest.find((run) => run.action_id === row.id) ?? null }]));
    },
  });

  routes.add({
    method: 'POST', url: '/actions/scope-preview', name: 'action.scope_preview', summary: 'How many assets of the latest snapshot a scope matches, before the action is saved',
    access: 'workflows.view_workflow', body: 'cartograph:api/action-scope-preview',
    handler: async (request) => {
      const caller = callerOf(request);
      // The preview reads as the person typing: `Query is <id>` expands the saved queries they may read.
      return previewScope(db, { companyId: caller.companyId, userId: caller.userId }, await resolveSnapshot(db, caller.companyId, null), request.body as ActionScope);
    },
  });

  routes.add({
    method: 'POST', url: '/actions/actions/:id/run', name: 'action.run', summary: 'Run an action now (or dry-run it, or re-run the failed targets of a run)',
    access: 'workflows.run_workflow', params: 'cartograph:api/id-params', body: 'cartograph:api/action-run-request', status: 202,
    handler: async (request) => {
      const caller = callerOf(request);
      const action = await loadAction(db, caller.companyId, (request.params as { id: number }).id);
      if (!action) throw notFound();
      const body = request.body as { dry_run?: boolean; rerun_of?: number };
      if (action.document.type === 'ssh_command' && !body.dry_run && !caller.permissions.has(sshCommandPermission)) {
        throw detailError(403, 'You may not run SSH commands.', 'permission_denied');
      }
      if (body.rerun_of) {
        const [earlier] = await db.query('select 1 from action_runs where id = $1 and action_id = $2', [body.rerun_of, action.id]);
        if (!earlier) throw new HttpError(400, { rerun_of: [`Invalid pk "${body.rerun_of}" - object does not exist.`] });
      }
      // The run and its job are written together: no run is left queued without a job to take it.
      const runId = await db.transaction(async (transaction) => {
        const created = await createRun(transaction, {
          companyId: caller.companyId, actionId: action.id, trigger: body.rerun_of ? 'rerun' : 'manual', dryRun: Boolean(body.dry_run),
          rerunOf: body.rerun_of ?? null, userId: caller.userId, username: caller.username,
        });
        await queueActionRun(context.jobs.send, created!, transaction);
        return created;
      });
      const [run] = await db.query(`select ${runColumns} from action_runs where id = $1`, [runId]);
      return run;
    },
  });

  routes.add({
    method: 'GET', url: '/actions/runs', name: 'action_run.list', summary: 'Run history (of one action), newest first', access: 'workflows.view_workflow', query: 'cartograph:api/action-run-list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const query = request.query as ListQuery & { action?: number };
      const { limit, offset } = pageWindow(query);
      const filter = 'company_id = $1 and ($2::int is null or action_id = $2)';
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from action_runs where ${filter}`, [caller.companyId, query.action ?? null]);
      const results = await db.query(`select ${runColumns} from action_runs where ${filter} order by id desc limit $3 offset $4`, [caller.companyId, query.action ?? null, limit, offset]);
      return paginated(request, query, count, results);
    },
  });
  routes.add({
    method: 'GET', url: '/actions/runs/:id', name: 'action_run.read', summary: 'One run with its counts', access: 'workflows.view_workflow', params: 'cartograph:api/id-params',
    handler: async (request) => {
      const [run] = await db.query(`select ${runColumns} from action_runs where id = $1 and company_id = $2`, [(request.params as { id: number }).id, callerOf(request).companyId]);
      if (!run) throw notFound();
      return run;
    },
  });
  routes.add({
    method: 'GET', url: '/actions/runs/:id/results', name: 'action_run.results', summary: "A run's per-target results (status, detail, output, exit status)",
    access: 'workflows.view_workflow', params: 'cartograph:api/id-params', query: 'cartograph:api/action-run-list-query',
    handler: async (request) => {
      const caller = callerOf(request);
      const runId = (request.params as { id: number }).id;
      const [run] = await db.query('select 1 from action_runs where id = $1 and company_id = $2', [runId, caller.companyId]);
      if (!run) throw notFound();
      const query = request.query as ListQuery & { status?: string };
      const { limit, offset } = pageWindow(query);
      const filter = 'run_id = $1 and ($2::text is null or status = $2)';
      const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from action_run_results where ${filter}`, [runId, query.status ?? null]);
      const results = await db.query(`select asset_id, name, status, detail, output, exit_code from action_run_results where ${filter} order by asset_id limit $3 offset $4`, [runId, query.status ?? null, limit, offset]);
      return paginated(request, query, count, results);
    },
  });

  routes.add({
    method: 'GET', url: '/actions/settings', name: 'action_settings.read', summary: "The action center's settings", access: 'workflows.view_jobsettings',
    handler: (request) => loadActionSettings(db, callerOf(request).companyId),
  });
  routes.add({
    method: 'PUT', url: '/actions/settings', name: 'action_settings.update', summary: "Change the action center's settings", access: 'workflows.change_jobsettings', body: actionSettingsKind,
    handler: async (request) => {
      const caller = callerOf(request);
      const document = { ...defaultActionSettings, ...(request.body as object) };
      await saveSettingsDocument(db, caller.companyId, actionSettingsKind, document);
      return loadActionSettings(db, caller.companyId);
    },
  });
}
