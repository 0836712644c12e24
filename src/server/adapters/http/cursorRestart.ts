// Restarting a request chain whose cursor expired (CrowdStrike's Spotlight `after` and scroll offsets live about two
// minutes, Kubernetes answers 410 to an old `continue`): the chain starts again, from a saved checkpoint when the
// manifest names one, and records already handed over are recognised by their key and skipped.
import type { RestartSpec } from './manifest.js';
import { compileTemplate, toText, type Renderer, type Scope } from './template.js';

const defaultMaxRestarts = 3;

/**
 * What a chain remembers to restart without duplicates. Without a checkpoint the chain restarts from its first page,
 * so the key of every record handed over is kept. With one (e.g. the `updated_timestamp` the request sorts
 * ascending by), the chain restarts at the last checkpoint value and only the keys of records carrying that same
 * value can come again: only those are kept.
 */
export class CursorRestarts {
  private readonly key: Renderer;
  private readonly checkpointOf: Renderer | null;
  private keys = new Set<string>();
  /** The checkpoint value of the last record handed over; the restarted chain sees it as `page.checkpoint`. */
  checkpoint: unknown = undefined;
  count = 0;

  constructor(readonly spec: RestartSpec) {
    this.key = compileTemplate(spec.key);
    this.checkpointOf = spec.checkpoint ? compileTemplate(spec.checkpoint) : null;
  }

  get maxRestarts(): number {
    return this.spec.max_restarts ?? defaultMaxRestarts;
  }

  /** The records of a page not handed over before (only a restarted chain can repeat any), remembering them. */
  fresh(records: unknown[], scope: Scope): unknown[] {
    const kept: unknown[] = [];
    const recordScope: Scope = { ...scope, record: undefined };
    for (const record of records) {
      recordScope.record = record;
      const key = toText(this.key(recordScope));
      if (this.keys.has(key)) continue;
      if (this.checkpointOf) {
        const checkpoint = this.checkpointOf(recordScope);
        // A new checkpoint value: records of earlier values cannot come again once the chain restarts at this one.
        if (toText(checkpoint) !== toText(this.checkpoint)) this.keys = new Set();
        this.checkpoint = checkpoint;
      }
      this.keys.add(key);
      kept.push(record);
    }
    return kept;
  }
}
