import { useSyncExternalStore } from 'react';

/** One step of the breadcrumb in the top bar; pages set their own trail, the Not Found screen clears it. */
export type Crumb = { label: string; to?: string };

let trail: Crumb[] = [];
const listeners = new Set<() => void>();

export function setBreadcrumb(next: Crumb[]): void {
  trail = next;
  listeners.forEach((listener) => listener());
}

export const clearBreadcrumb = (): void => setBreadcrumb([]);
export const getBreadcrumb = (): Crumb[] => trail;

export function useBreadcrumb(): Crumb[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => trail,
  );
}
