import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import sshCredentialSchema from '../../../schemas/entities/ssh-credential.json';
import smtpSchema from '../../../schemas/settings/smtp-configuration.json';
import syslogSchema from '../../../schemas/settings/syslog-configuration.json';
import { dismissAll } from '../../../src/web/app/notifications/notifications';
import { FieldFacts } from '../../../src/web/pages/inventories/facts';
import type { AssetRow, FieldMap } from '../../../src/web/pages/inventories/inventoryApi';
import { inventoryColumns } from '../../../src/web/pages/inventories/inventoryColumns';
import { formModelOf, type EntitySchema as FormSchema } from '../../../src/web/renderers/form/formSchema';
import { SchemaForm } from '../../../src/web/renderers/form/SchemaForm';
import { entityLinks } from '../../../src/web/renderers/list/entityRoutes';
import { SchemaList } from '../../../src/web/renderers/list/SchemaList';
import type { EntitySchema } from '../../../src/web/renderers/schema/entitySchema';
import { formatValue } from '../../../src/web/renderers/schema/formatValue';
import { localizedSchema } from '../../../src/web/renderers/schema/localizedSchema';
import { freshSession, serveApi } from '../app/helpers';
import { renderWithQuery } from './render';

// Issue 28, "No raw enum value is ever shown": a schema names its enum values under `x-enum-titles`, codegen writes
// those names into the message file, and the form's options, the list's cells and the detail's rows show them.
const withQueries = (children: React.ReactNode) => <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>;
const optionsOf = (select: HTMLElement) => within(select).getAllByRole('option').map((option) => option.textContent).filter((text) => text && text !== '—');

beforeEach(() => {
  freshSession();
  dismissAll();
});

describe('enum values', () => {
  it("show their display names as a settings form's select options: SMTP security, syslog transport and format", () => {
    render(withQueries(<SchemaForm model={formModelOf(smtpSchema as unknown as FormSchema, 'edit')} onSubmit={async () => undefined} />));
    expect(optionsOf(screen.getByLabelText(/^Security/))).toEqual(['None (plain SMTP)', 'STARTTLS', 'TLS']);
    render(withQueries(<SchemaForm model={formModelOf(syslogSchema as unknown as FormSchema, 'edit')} onSubmit={async () => undefined} />));
    expect(optionsOf(screen.getByLabelText(/^Transport/))).toEqual(['UDP', 'TCP', 'TLS']);
    expect(optionsOf(screen.getByLabelText(/^Format/))).toEqual(['RFC 5424', 'ArcSight CEF']);
  });

  it("show their display names in a list's cells, never the raw value", async () => {
    serveApi({
      'GET /actions/ssh-credentials': {
        body: { count: 1, next: null, previous: null, results: [{ id: 1, name: 'Fleet', username: 'ops', port: 22, auth_method: 'private_key' }] },
      },
    });
    const schema = localizedSchema(sshCredentialSchema as unknown as EntitySchema);
    renderWithQuery(<SchemaList schema={schema} links={entityLinks(sshCredentialSchema.$id, ['workflows.view_sshsettings'])} searchDebounce={0} />);
    await screen.findByText('Fleet');
    expect(screen.getByRole('cell', { name: 'Private key' })).toBeTruthy();
    expect(screen.queryByText('private_key')).toBeNull();
  });

  it('show their display names in detail rows (formatValue), and booleans as Yes and No', () => {
    const syslog = localizedSchema(syslogSchema as unknown as EntitySchema);
    expect(formatValue('rfc5424', syslog.properties.format)).toBe('RFC 5424');
    expect(formatValue('cef', syslog.properties.format)).toBe('ArcSight CEF');
    expect(formatValue(true, syslog.properties.verify_certificate)).toBe('Yes');
    expect(formatValue(false, syslog.properties.enabled)).toBe('No');
  });
});

describe('inventory values', () => {
  it("show a coded value by its field map's display name, and booleans as Yes and No, in list cells and facts", () => {
    const fieldMap: FieldMap = {
      KeyAlgorithm: { value_type: 'text', label: 'Key algorithm', adapter: 'cartograph', value_titles: { rsa: 'RSA', ec: 'EC' } },
      SelfSigned: { value_type: 'boolean', label: 'Self-signed', adapter: 'cartograph' },
    };
    const row = { KeyAlgorithm: ['rsa'], SelfSigned: [true] } as unknown as AssetRow;
    const columns = inventoryColumns(['KeyAlgorithm', 'SelfSigned'], fieldMap);
    expect(columns.map((column) => column.header)).toEqual(['Key algorithm', 'Self-signed']);
    render(<table><tbody><tr>{columns.map((column) => <td key={column.id}>{column.cell(row, 0)}</td>)}</tr></tbody></table>);
    expect(screen.getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['RSA', 'Yes']);
    render(<FieldFacts asset={{ KeyAlgorithm: ['ec', 'dsa'] }} keys={['KeyAlgorithm']} fieldMap={fieldMap} />);
    expect(screen.getByText('EC')).toBeTruthy();
    expect(screen.getByRole('button', { name: '1 more: dsa' }).textContent).toBe('+1');
  });
});
