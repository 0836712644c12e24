// Reading one adapter folder (schemas/adapters/<slug>/) and the checks of its files that need no replay: shared by
// the adapter kit's `check` and the conformance tests, so both judge an adapter by the same rules.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServerAjv } from '../../codegen/validators.js';
import { replayPlaceholder } from './replayServer.js';

type Node = Record<string, unknown>;
type SchemaNode = { properties?: Record<string, SchemaNode>; oneOf?: SchemaNode[] };

export const adaptersFolder = 'schemas/adapters';
/** The slug rule of adapter.meta.json: lower-case words joined by single hyphens. */
export const slugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Network settings the engine applies to every request itself, so a manifest need not read them. */
const engineSettings = new Set(['verify_ssl', 'custom_ca', 'proxy', 'timeout_seconds']);

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The files of one adapter folder, by role. */
export function adapterFiles(slug: string, root = adaptersFolder) {
  const folder = join(root, slug);
  return {
    folder,
    adapter: join(folder, 'adapter.json'),
    connection: join(folder, 'connection.schema.json'),
    manifest: join(folder, 'manifest.json'),
    fixture: join(folder, 'fixtures', 'replay.json'),
    instructions: join(folder, 'instructions.md'),
    icon: join(folder, 'icon.svg'),
    adapterMeta: join(root, 'adapter.meta.json'),
    manifestMeta: join(root, 'manifest.meta.json'),
  };
}

/** Validation errors of `value` against `schema` (compiled by the server's ajv), at most five, as text. */
export function schemaErrors(schema: Node, value: unknown): string[] {
  const validate = createServerAjv({ coerce: false }).compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
}

/** `config.<name>` and `config.auth.<name>` paths a form offers (auth branches: every branch's fields). */
export function formPaths(schema: SchemaNode): string[] {
  const paths: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (engineSettings.has(name)) continue;
    const branches = [property, ...(property.oneOf ?? [])].filter((branch) => branch.properties);
    if (!branches.length) paths.push(`config.${name}`);
    for (const branch of branches) for (const child of Object.keys(branch.properties ?? {})) if (child !== 'auth_type') paths.push(`config.${name}.${child}`);
  }
  return [...new Set(paths)];
}

/** Form fields the manifest text never reads: a form field no request uses would promise what is not done. */
export function unreadFormFields(manifestText: string, schema: SchemaNode): string[] {
  return formPaths(schema).filter((path) => !new RegExp(`${path.replace(/\./g, '\\.')}\\b`).test(manifestText));
}

/** The fixture's config with the replay URL put back to a value the form accepts (an enum member, a default or an example). */
export function configForForm(config: Node, schema: Node): Node {
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  return Object.fromEntries(
    Object.entries(config).map(([name, value]) => {
      if (typeof value !== 'string' || !value.includes(replayPlaceholder)) return [name, value];
      const property = properties[name] ?? {};
      const stand = (property.enum as string[] | undefined)?.[0] ?? (property.default as string | undefined) ?? (property.examples as string[] | undefined)?.[0] ?? 'https://replay.example.com';
      return [name, value.split(replayPlaceholder).join(stand.replace(/\/$/, ''))];
    }),
  );
}

/** True when the folder holds the file; a missing file is reported by the caller as a problem naming it. */
export function has(path: string): boolean {
  return existsSync(path);
}
