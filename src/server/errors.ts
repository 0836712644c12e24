/**
 * The refusals of the domain: what a module outside the HTTP layer throws when a request cannot be met. Each kind
 * says what went wrong, not how to answer it: http/errors.ts alone turns a kind into its HTTP status, so the stores,
 * queries and workers stay free of the HTTP layer (and of the import cycles it brought).
 */

export type FieldErrors = Record<string, string[]>;
export type ErrorBody = FieldErrors | { detail: string; code?: string };

/** A refusal with the body the caller is shown: field errors (`{"name": ["…"]}`) or `{detail, code?}`. */
export abstract class DomainError extends Error {
  constructor(readonly body: ErrorBody) {
    super(typeof body.detail === 'string' ? body.detail : Object.entries(body as FieldErrors).map(([field, messages]) => `${field}: ${messages.join(' ')}`).join('; '));
    this.name = new.target.name;
  }
}

/** Input that cannot be used: field errors, or a detail when no single field is at fault. */
export class Invalid extends DomainError {}
/** Who asks is not known (a wrong password, an expired code). */
export class Unauthenticated extends DomainError {}
/** Who asks may not do this. */
export class Forbidden extends DomainError {}
/** What is asked for does not exist (or is not the caller's to see). */
export class NotFound extends DomainError {}
/** The request clashes with the current state (a discovery already running, data already there). */
export class Conflict extends DomainError {}
/** A service the request needs cannot be reached. */
export class Unavailable extends DomainError {}
/** What was sent is larger than the server takes (an upload over its limit). */
export class TooLarge extends DomainError {}

/** The `{detail}` body (optionally with a machine-readable `code`). */
export const detailBody = (detail: string, code?: string): ErrorBody => (code ? { detail, code } : { detail });

export const notFound = (): NotFound => new NotFound({ detail: 'Not found.' });

/** A snapshot that existed but whose rows were pruned (it is older than the company keeps): not the plain not-found. */
export const snapshotPruned = (): NotFound => new NotFound(detailBody("This discovery's data was pruned.", 'snapshot_pruned'));

/** Field errors for one field: `fieldError('name', 'This field is required.')` → `{"name": ["This field is required."]}`. */
export function fieldError(field: string, ...messages: string[]): Invalid {
  return new Invalid({ [field]: messages });
}

/** Refuses what only the provider company may do; `why` says so in the user's words. */
export function requireProvider(caller: { isProvider: boolean }, why: string): void {
  if (!caller.isProvider) throw new Forbidden(detailBody(why, 'permission_denied'));
}
