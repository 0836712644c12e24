/** Field → sources, preferred first (the advanced configuration's `ordering`). */
export type Ordering = Record<string, string[]>;

// Fields of related inventories reached from a device: their precedence is their own inventory's.
const relatedPrefixes = ['Software.', 'Vulnerability.', 'Service.', 'Device.'];

/** The fields a precedence can be set for: the device and user fields of the field maps, without related ones. */
export function precedenceFields(configuration: Record<string, unknown> | undefined): string[] {
  const keysOf = (map: unknown) => (map && typeof map === 'object' ? Object.keys(map) : []);
  const fields = [...keysOf(configuration?.field_map), ...keysOf(configuration?.user_field_map)].filter((key) => !relatedPrefixes.some((prefix) => key.startsWith(prefix)));
  return [...new Set(fields)].sort((left, right) => left.localeCompare(right));
}

/** Moves the source at `index` one place up (-1) or down (+1). Before: (['a', 'b'], 1, -1); after: ['b', 'a']. */
export function moved(sources: string[], index: number, step: -1 | 1): string[] {
  const target = index + step;
  if (target < 0 || target >= sources.length) return sources;
  const next = [...sources];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** The ordering without fields whose list is empty (they follow the default order anyway). */
export const withoutEmpty = (ordering: Ordering): Ordering => Object.fromEntries(Object.entries(ordering).filter(([, sources]) => sources.length > 0));
