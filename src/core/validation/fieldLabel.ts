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

/**
 * A property's label in forms and messages: its title, else its name's label (`group_ids` reads as "Groups": people
 * pick groups, the ids are the wire format). Before: `("first_name", {})`; after: `"First Name"`.
 */
export function propertyLabel(name: string, property: { title?: unknown }): string {
  if (typeof property.title === 'string') return property.title;
  return fieldLabel(name.endsWith('_ids') ? `${name.slice(0, -4)}s` : name);
}
