/**
 * A field's label from its key (spec §3): split on dots and underscores, each word capitalised.
 * Before: `"first_name"`; after: `"First Name"`. Before: `"OS.type"`; after: `"OS Type"`.
 */
export function fieldLabel(key: string): string {
  return key
    .split(/[._]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
