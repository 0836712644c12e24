import type { StoryObj } from '@storybook/react-vite';
import { useMemo, useState } from 'react';
import { Card } from '../../src/web/ui';
import '../../src/web/ui/Table/Table.css';
import { customForms } from '../../src/web/pages/adapters/connectionForm/customForms';
import { connectionFormModel, settingsMessages, withDefaults, type ConnectionValues } from '../../src/web/pages/adapters/connectionForm/connectionModel';
import type { SchemaNode } from '../../src/web/pages/adapters/connectionForm/schemaCheck';
import { SettingsForm } from '../../src/web/pages/adapters/connectionForm/SettingsForm';

type AdapterMeta = { name: string; slug: string; description: string; engine: string | null };

// The catalogue itself: every adapter folder with a connection schema is a story (no adapter is written by hand).
const adapterFiles = import.meta.glob<AdapterMeta>('../../schemas/adapters/*/adapter.json', { eager: true, import: 'default' });
const schemaFiles = import.meta.glob<SchemaNode>('../../schemas/adapters/*/connection.schema.json', { eager: true, import: 'default' });
const slugOf = (file: string) => file.split('/').at(-2) ?? '';

export const catalogue: { adapter: AdapterMeta; schema: SchemaNode }[] = Object.entries(schemaFiles)
  .map(([file, schema]) => ({ adapter: adapterFiles[file.replace('connection.schema.json', 'adapter.json')], schema }))
  .filter((entry): entry is { adapter: AdapterMeta; schema: SchemaNode } => Boolean(entry.adapter))
  .sort((left, right) => left.adapter.slug.localeCompare(right.adapter.slug));

export const catalogueSlugs = Object.keys(schemaFiles).map(slugOf).sort();

export type AdapterFormArgs = { slug: string };

/**
 * One adapter's connection settings as the connection page shows them (its custom form for the network scanner),
 * with the page's checks: a field's message appears when it loses focus.
 */
export function AdapterConnectionForm({ slug }: AdapterFormArgs) {
  const entry = catalogue.find((candidate) => candidate.adapter.slug === slug);
  const model = useMemo(() => (entry ? connectionFormModel(entry.schema, 'create') : null), [entry]);
  const [values, setValues] = useState<ConnectionValues>(() => (model ? withDefaults(model, {}) : {}));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [noStoredSecrets] = useState<ReadonlySet<string>>(() => new Set());
  if (!entry || !model) return <p role="alert">No adapter {slug} in the catalogue.</p>;
  const custom = customForms[slug];
  const Settings = custom?.Form ?? SettingsForm;
  const check = async (path: string, next: ConnectionValues) => {
    const messages = { ...(await settingsMessages(model, next)), ...(custom?.extraMessages(next) ?? {}) };
    setErrors((current) => {
      const { [path]: _previous, ...rest } = current;
      return messages[path] ? { ...rest, [path]: [messages[path]!] } : rest;
    });
  };
  return (
    <Card title={`${entry.adapter.name} settings`}>
      <p>{entry.adapter.description}{entry.adapter.engine ? '' : ' No fetch engine yet: the connection page shows this form read-only.'}</p>
      <Settings model={model} values={values} onValuesChange={(next) => setValues(next)} onFieldBlur={(path, next) => void check(path, next)}
        errors={errors} storedSecretIds={noStoredSecrets} disabled={!entry.adapter.engine} />
    </Card>
  );
}

const authVariants = (schema: SchemaNode): string => {
  const auth = schema.properties?.auth;
  if (!auth) return '-';
  return auth.oneOf ? auth.oneOf.map((branch) => branch.title ?? '?').join(' / ') : String(auth.properties?.auth_type?.description ?? auth.title ?? '-');
};
const secretCount = (schema: SchemaNode): number => (JSON.stringify(schema).match(/"x-secret":true/g) ?? []).length;
const sectionsOf = (schema: SchemaNode): string =>
  [...new Set(Object.values(schema.properties ?? {}).map((property) => property['x-group']).filter(Boolean))].join(', ');

/** Every adapter of the catalogue with its form's sections, auth variants and number of secrets. */
export function CatalogueOverview() {
  return (
    <div className="ui-table__scroll"><table className="ui-table">
      <caption>{catalogue.length} adapter connection forms</caption>
      <thead><tr><th>Adapter</th><th>Slug</th><th>Sections</th><th>Authentication</th><th>Secrets</th><th>Engine</th></tr></thead>
      <tbody>
        {catalogue.map(({ adapter, schema }) => (
          <tr key={adapter.slug}>
            <td>{adapter.name}</td><td><code>{adapter.slug}</code></td><td>{sectionsOf(schema)}</td><td>{authVariants(schema)}</td><td>{secretCount(schema)}</td><td>{adapter.engine ?? 'none yet'}</td>
          </tr>
        ))}
      </tbody>
    </table></div>
  );
}

/** The story of one adapter's form (the catalogue's stories are generated from this, see connectionFormStories.node.ts). */
export function adapterStory(slug: string): StoryObj<typeof AdapterConnectionForm> {
  const entry = catalogue.find((candidate) => candidate.adapter.slug === slug);
  return { name: entry?.adapter.name ?? slug, args: { slug } };
}
