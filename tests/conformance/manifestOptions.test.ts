// A form field of an HTTP adapter that its manifest never reads would promise something Cartograph does not do
// (issue 4: nothing pretends to fetch). Every field of the connection form must be read by the manifest, apart from
// the network settings, which the engine itself applies to every request.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type SchemaNode = { properties?: Record<string, SchemaNode>; oneOf?: SchemaNode[] };

const adaptersFolder = 'schemas/adapters';
const engineSettings = new Set(['verify_ssl', 'custom_ca', 'proxy', 'timeout_seconds']);
const slugs = readdirSync(adaptersFolder).filter((slug) => existsSync(`${adaptersFolder}/${slug}/manifest.json`)).sort();

/** `config.<name>` and `config.auth.<name>` paths a form offers (auth branches: every branch's fields). */
function formPaths(schema: SchemaNode): string[] {
  const paths: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (engineSettings.has(name)) continue;
    const branches = [property, ...(property.oneOf ?? [])].filter((branch) => branch.properties);
    if (!branches.length) paths.push(`config.${name}`);
    for (const branch of branches) for (const child of Object.keys(branch.properties ?? {})) if (child !== 'auth_type') paths.push(`config.${name}.${child}`);
  }
  return [...new Set(paths)];
}

describe('HTTP adapter forms offer only what their manifests do', () => {
  it.each(slugs)('%s: every form field is read by the manifest', (slug) => {
    const manifest = readFileSync(`${adaptersFolder}/${slug}/manifest.json`, 'utf8');
    const schema = JSON.parse(readFileSync(`${adaptersFolder}/${slug}/connection.schema.json`, 'utf8')) as SchemaNode;
    const unread = formPaths(schema).filter((path) => !new RegExp(`${path.replace(/\./g, '\\.')}\\b`).test(manifest));
    expect(unread).toEqual([]);
  });
});
