import { useEffect, useSyncExternalStore } from 'react';
import { currentFullPath } from '../navigation';

/** Field-level messages of one failed call: field name → messages. */
export type FieldErrors = Record<string, string[]>;

// Spec §5/§8: server-side validation errors are matched per route path, call path and field name.
let store: Record<string, FieldErrors> = {};
const listeners = new Set<() => void>();
const keyOf = (routePath: string, callPath: string) => `${routePath} ${callPath}`;
const emit = () => listeners.forEach((listener) => listener());

/** The console route the user is on, without its query (the key field errors are stored under). */
export const currentRoutePath = (): string => currentFullPath().split('?')[0] ?? '/';

export function setFieldErrors(routePath: string, callPath: string, errors: FieldErrors): void {
  const key = keyOf(routePath, callPath);
  if (!Object.keys(errors).length && !(key in store)) return;
  const { [key]: _previous, ...rest } = store;
  store = Object.keys(errors).length ? { ...rest, [key]: errors } : rest;
  emit();
}

export function clearFieldErrors(routePath?: string, callPath?: string): void {
  store = routePath === undefined ? {} : Object.fromEntries(Object.entries(store).filter(([key]) => key !== keyOf(routePath, callPath ?? '')));
  emit();
}

/** The messages of one field for a call made on a route. */
export function fieldErrorsFor(routePath: string, callPath: string, field: string): string[] {
  return store[keyOf(routePath, callPath)]?.[field] ?? [];
}

// Issue 36: a message listed under its field is not repeated in the notification. Mounted forms tell which fields of
// a call they list under the field itself (route path and call path → field → how many forms list it).
const shownFields = new Map<string, Map<string, number>>();

/**
 * Whether a form mounted on the route lists the messages of `field` under the field itself. A shown name ending in
 * `.*` covers the fields below it: `ordering.*` covers `ordering.Hostname`.
 */
export function isFieldShown(routePath: string, callPath: string, field: string): boolean {
  const counts = shownFields.get(keyOf(routePath, callPath));
  if (!counts) return false;
  return counts.has(field) || [...counts.keys()].some((name) => name.endsWith('.*') && field.startsWith(name.slice(0, -1)));
}

function countShown(key: string, names: readonly string[], by: 1 | -1): void {
  const counts = shownFields.get(key) ?? new Map<string, number>();
  for (const name of names) {
    const count = (counts.get(name) ?? 0) + by;
    if (count > 0) counts.set(name, count);
    else counts.delete(name);
  }
  if (counts.size) shownFields.set(key, counts);
  else shownFields.delete(key);
}

/**
 * The field errors of a call made from the current route; a form lists them under each field. `shown` names the
 * fields this form lists under themselves while it is mounted, so the failed call's notification leaves them out.
 */
export function useFieldErrors(callPath: string, shown: readonly string[] = [], routePath: string = currentRoutePath()): FieldErrors {
  const signature = shown.join('\n');
  useEffect(() => {
    if (!signature) return undefined;
    const key = keyOf(routePath, callPath);
    const names = signature.split('\n');
    countShown(key, names, 1);
    return () => countShown(key, names, -1);
  }, [routePath, callPath, signature]);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => store[keyOf(routePath, callPath)] ?? noErrors,
  );
}
const noErrors: FieldErrors = {};
