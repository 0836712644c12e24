type Schema = { $id: string; required?: unknown; examples?: unknown; properties?: Record<string, object>; [keyword: string]: unknown };

/**
 * The schema a PATCH body is validated against (id `<id>-patch`): the same properties, none required, and no
 * defaults, so a partial update never fills in (and overwrites) fields the caller left out.
 */
export function patchVariant<T extends Schema>(schema: T): Schema {
  const { required: _required, examples: _examples, properties = {}, ...rest } = schema;
  const withoutDefaults = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const { default: _default, ...kept } = property as { default?: unknown };
      return [name, kept];
    }),
  );
  return { ...rest, properties: withoutDefaults, $id: `${schema.$id}-patch` };
}
