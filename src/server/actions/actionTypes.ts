import type { CoreContext } from '../context.js';
import type { OutboundPolicy } from '../outbound/guard.js';
import type { ActionSettings } from './actionSettings.js';
import type { Target } from './template.js';

/** What happened to one target of a run. `planned` is a dry run's answer: the target was listed, not acted on. */
export type TargetStatus = 'succeeded' | 'failed' | 'skipped' | 'planned';
export type TargetResult = { status: TargetStatus; detail: string; output?: string; exitCode?: number | null };

/** Everything a runner needs: its action (parameters with secrets opened), the company's settings, and the server. */
export type RunEnvironment = {
  context: CoreContext;
  companyId: number;
  actionId: number;
  actionName: string;
  parameters: Record<string, unknown>;
  settings: ActionSettings;
  /** Where this company's calls may go (the outbound guard's policy); the action center's list narrows it further. */
  outbound: OutboundPolicy;
  /** The snapshot the targets come from. */
  discoveryId: number;
  /** The run and the attempt acting (a claim a runner writes names them, so a superseded attempt claims nothing). */
  runId: number;
  attempt: number;
  /** Aborted once another attempt took the run over (this one's process was thought stopped): act on no more targets. */
  signal: AbortSignal;
};

/**
 * An action type: its parameters' schema (`schemas/actions/<type>.json`) and its runner, which acts on every target
 * and answers one result per target, in order. Adding a type is a schema plus a runner registered in actionRunners.
 */
export type ActionRunner = {
  /** The inventories whose assets it can act on (null: any). */
  entities: string[] | null;
  /**
   * A run taken over from a stopped process may act on its targets again: the runner itself keeps a target from
   * being acted on twice (a claim in the database, or an act that repeated changes nothing). Other runs that had begun
   * acting are failed instead, since their targets may have been acted on.
   */
  resumable?: boolean;
  run: (environment: RunEnvironment, targets: Target[]) => Promise<TargetResult[]>;
};

export const parameterSchemaOf = (type: string) => `cartograph:actions/${type}`;

/** Every result the same: a call that carried every target (an e-mail, a batch) succeeded or failed as one. */
export const allTargets = (targets: Target[], result: TargetResult): TargetResult[] => targets.map(() => result);

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
