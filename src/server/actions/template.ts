/** One asset an action works on: its id, a display name and its merged fields (every value a list, as searches answer). */
export type Target = { assetId: string; name: string; fields: Record<string, unknown[]> };

/** Values a template may name besides the asset's fields ({{action}}, {{count}}). */
export type TemplateExtras = Record<string, string | number>;

const placeholder = /\{\{\s*([A-Za-z0-9_.:-]+)\s*\}\}/g;

function valuesOf(name: string, target: Target | null, extras: TemplateExtras): unknown[] {
  if (name in extras) return [extras[name]];
  if (!target) return [];
  if (name === 'PrimaryKey') return [target.assetId];
  return target.fields[name] ?? [];
}

const textOf = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/**
 * Fills `{{Field}}` placeholders with the asset's values (several values joined by ", "), each passed through
 * `quote` (shell quoting for SSH commands). Before: `"ping {{Hostname}}"`; after: `"ping web-01"`.
 */
export function renderText(template: string, target: Target | null, extras: TemplateExtras = {}, quote: (text: string) => string = (text) => text): string {
  return template.replace(placeholder, (_match, name: string) => quote(valuesOf(name, target, extras).map(textOf).join(', ')));
}

/** Quotes a value for a POSIX shell: `it's` → `'it'\''s'`. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function renderJsonNode(node: unknown, target: Target, extras: TemplateExtras): unknown {
  if (typeof node === 'string') {
    const whole = /^\{\{\s*([A-Za-z0-9_.:-]+)\s*\}\}$/.exec(node);
    // A string that is only a placeholder keeps the field's values as JSON (a list of several, one value alone).
    if (whole) {
      const values = valuesOf(whole[1], target, extras);
      return values.length > 1 ? values : (values[0] ?? null);
    }
    return renderText(node, target, extras);
  }
  if (Array.isArray(node)) return node.map((item) => renderJsonNode(item, target, extras));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, renderJsonNode(value, target, extras)]));
  return node;
}

/**
 * A JSON template over one asset: placeholders are filled inside the parsed JSON's strings, so a value never breaks
 * the JSON it is put in. Before: `{"host": "{{Hostname}}"}`; after: `{"host": "web-01"}`.
 */
export function renderJson(template: string, target: Target, extras: TemplateExtras = {}): unknown {
  return renderJsonNode(JSON.parse(template), target, extras);
}

/** The template's JSON problem, or null when it parses. */
export function jsonTemplateProblem(template: string): string | null {
  try {
    JSON.parse(template);
    return null;
  } catch (error) {
    return `The template is not JSON: ${(error as Error).message}`;
  }
}
