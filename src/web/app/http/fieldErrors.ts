import { useSyncExternalStore } from 'react';
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

/** The field errors of a call made from the current route; a form lists them under each field. */
export function useFieldErrors(callPath: string, routePath: string = currentRoutePath()): FieldErrors {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => store[keyOf(routePath, callPath)] ?? noErrors,
  );
}
const noErrors: FieldErrors = {};
