/** The marker the server keeps instead of a value over 64 kB (src/server/activities/activityChanges.ts). */
export type TruncatedValue = { $truncated: true; size_bytes: number; preview: string };

export type ChangeState = 'added' | 'removed' | 'changed' | 'unchanged';

/** One field of a change: its path (`groups[0].name`), and its value before and after as shown (undefined: absent). */
export type ChangeRow = { field: string; before: string | undefined; after: string | undefined; state: ChangeState };

export function isTruncated(value: unknown): value is TruncatedValue {
  return typeof value === 'object' && value !== null && (value as { $truncated?: unknown }).$truncated === true;
}

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The leaves of a value by path, in document order; empty objects and arrays are leaves of their own so that
 * clearing a list shows. Before: `{a: {b: 1}, c: [2]}`; after: `[["a.b", 1], ["c[0]", 2]]`.
 */
function leavesOf(value: unknown, path = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value) && value.length) value.forEach((item, index) => leavesOf(item, `${path}[${index}]`, into));
  else if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [key, item] of Object.entries(value)) leavesOf(item, path ? `${path}.${key}` : key, into);
  } else into.set(path, value);
  return into;
}

/**
 * The fields of a change side by side: every path either value has, in the order the values list them (the
 * before's first), marked added, removed, changed or unchanged. A created resource has only "after" values, a
 * deleted one only "before" values.
 */
export function changeRows(before: unknown, after: unknown): ChangeRow[] {
  const [old, current] = [before === null ? new Map<string, unknown>() : leavesOf(before), after === null ? new Map<string, unknown>() : leavesOf(after)];
  const fields = [...new Set([...old.keys(), ...current.keys()])];
  return fields.map((field) => {
    const [was, is] = [old.has(field) ? shown(old.get(field)) : undefined, current.has(field) ? shown(current.get(field)) : undefined];
    const state: ChangeState = was === undefined ? 'added' : is === undefined ? 'removed' : was === is ? 'unchanged' : 'changed';
    return { field: field || '(value)', before: was, after: is, state };
  });
}

type TitledSchema = { title?: string; properties?: Record<string, TitledSchema>; items?: TitledSchema };

/**
 * A change's field path as its schema titles it: `smtp_security` → "SMTP security", `groups[0].name` → "Groups › 1 ›
 * Name". A segment the schema does not know keeps its name; an item of a list is its position, counted from 1.
 */
export function fieldTitle(path: string, schema: TitledSchema | null | undefined): string {
  if (!schema) return path;
  const parts: string[] = [];
  let at: TitledSchema | undefined = schema;
  for (const segment of path.match(/[^.[\]]+|\[\d+\]/g) ?? [path]) {
    const index = /^\[(\d+)\]$/.exec(segment);
    if (index) {
      parts.push(String(Number(index[1]) + 1));
      at = at?.items;
      continue;
    }
    const property: TitledSchema | undefined = at?.properties?.[segment];
    parts.push(property?.title ?? segment);
    at = property;
  }
  return parts.join(' › ');
}
