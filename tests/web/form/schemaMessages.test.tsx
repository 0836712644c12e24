import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ldapSchema from '../../../schemas/settings/ldap-configuration.json';
import policySchema from '../../../schemas/entities/security-policy.json';
import userSchema from '../../../schemas/entities/user.json';
import { schemaMessageKey } from '../../../src/core/schemaMessages';
import { installMessages, loadMessages } from '../../../src/web/app/i18n/messages';
import { supportedLocale } from '../../../src/web/app/i18n/locales';
import { connectionSchemaQuery } from '../../../src/web/pages/adapters/connectionForm/connectionFormApi';
import { connectionFormModel } from '../../../src/web/pages/adapters/connectionForm/connectionModel';
import { formModelOf, type EntitySchema } from '../../../src/web/renderers/form/formSchema';
import { SchemaForm } from '../../../src/web/renderers/form/SchemaForm';
import { entityLinks } from '../../../src/web/renderers/list/entityRoutes';
import { SchemaList } from '../../../src/web/renderers/list/SchemaList';
import type { EntitySchema as ListSchema } from '../../../src/web/renderers/schema/entitySchema';
import { formatValue } from '../../../src/web/renderers/schema/formatValue';
import { localizedSchema } from '../../../src/web/renderers/schema/localizedSchema';
import type { SchemaNode } from '../../../src/web/pages/adapters/connectionForm/schemaCheck';
import adapterMessages from '../../../src/web/public/locales/en-US.adapters.json';
import messages from '../../../src/web/public/locales/en-US.json';
import { freshSession, serveApi } from '../app/helpers';
import { renderWithQuery, userRows } from '../renderers/render';

// A translation is a message file: what these tests install in place of the English is what a French file would hold.
const policyKey = (pointer: string, facet: Parameters<typeof schemaMessageKey>[2]) => schemaMessageKey(policySchema.$id, pointer, facet);
const withQueries = (children: React.ReactNode) => <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>;

afterEach(() => {
  installMessages(messages);
  installMessages({}, 'adapters');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('schema-rendered texts', () => {
  it("show a form's labels, help texts and option labels from the message file, not from the schema", () => {
    installMessages({
      ...messages,
      [policyKey('/properties/name', 'title')]: 'Nom',
      [policyKey('/properties/name', 'description')]: 'Le contrôle, tel que la liste des échecs le montre.',
      [policyKey('/properties/severity', 'title')]: 'Gravité',
      [policyKey('/properties/severity', 'enum.critical')]: 'Critique',
    });
    const model = formModelOf(policySchema as unknown as EntitySchema, 'create');
    render(withQueries(<SchemaForm model={model} onSubmit={async () => undefined} />));
    expect(screen.getByLabelText(/^Nom/)).toBeTruthy();
    expect(screen.getByText('Le contrôle, tel que la liste des échecs le montre.')).toBeTruthy();
    expect(screen.queryByText(policySchema.properties.name.description)).toBeNull();
    const severity = screen.getByLabelText(/^Gravité/);
    expect(within(severity).getAllByRole('option').map((option) => option.textContent)).toEqual(expect.arrayContaining(['Critique', 'High']));
    // A property without a title is labelled by its message too (English: its name's label), and so are its errors.
    expect(model.labels.remediation).toBe(messages[policyKey('/properties/remediation', 'title') as keyof typeof messages]);
  });

  it("name a form's sections from the message file", () => {
    const grouped = Object.entries(ldapSchema.properties).find(([, property]) => 'x-group' in property && !('readOnly' in property))!;
    const section = (grouped[1] as { 'x-group': string })['x-group'];
    installMessages({ ...messages, [schemaMessageKey(ldapSchema.$id, '', `group.${section}`)]: 'Section traduite' });
    const model = formModelOf(ldapSchema as unknown as EntitySchema, 'edit');
    expect(model.groups[grouped[0]]).toBe('Section traduite');
  });

  it("show a list's heading, columns and option values from the message file", async () => {
    freshSession();
    const calls = serveApi({ 'GET /users/users': { body: { count: 3, next: null, previous: null, results: userRows(3) } } });
    installMessages({
      ...messages,
      [schemaMessageKey(userSchema.$id, '', 'plural')]: 'Utilisateurs',
      [schemaMessageKey(userSchema.$id, '/properties/username', 'title')]: "Nom d'utilisateur",
    });
    renderWithQuery(<SchemaList schema={localizedSchema(userSchema as unknown as ListSchema)} links={entityLinks(userSchema.$id, ['users.view_user'])} searchDebounce={0} />);
    await screen.findByText('user01');
    expect(screen.getByRole('heading', { level: 1, name: 'Utilisateurs' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /^Nom d'utilisateur/ })).toBeTruthy();
    expect(calls.map((call) => call.url.split('?')[0])).toEqual(['/users/users']);

    installMessages({ ...messages, [policyKey('/properties/severity', 'enum.high')]: 'Élevée' });
    const policy = localizedSchema(policySchema as unknown as ListSchema);
    expect(formatValue('high', policy.properties.severity)).toBe('Élevée');
  });

  it("fetch the adapters' message file when the first connection form opens, once, and label the form from it", async () => {
    const zabbixTitle = schemaMessageKey('cartograph:adapters/zabbix/connection', '/properties/auth', 'title');
    expect(adapterMessages).toHaveProperty([zabbixTitle]);
    const answers: Record<string, unknown> = { 'en-US.json': messages, 'en-US.adapters.json': { ...adapterMessages, [zabbixTitle]: 'Authentification' } };
    const fetched: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const file = url.split('/').at(-1)!;
      fetched.push(file);
      return new Response(JSON.stringify(answers[file]), { status: 200 });
    }));
    localStorage.clear();
    await loadMessages(supportedLocale('en-US')!);
    expect(fetched).toEqual(['en-US.json']);
    const zabbix = (await connectionSchemaQuery('zabbix').queryFn!({} as never)) as SchemaNode;
    await connectionSchemaQuery('aws').queryFn!({} as never);
    expect(fetched).toEqual(['en-US.json', 'en-US.adapters.json']);
    expect(zabbix.properties?.auth?.title).toBe('Authentification');
    expect(connectionFormModel(zabbix, 'create').labels.auth).toBe('Authentification');
  });
});
