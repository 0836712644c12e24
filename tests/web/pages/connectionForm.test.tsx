import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteEntry } from '../../../src/web/app/routeTable';
import { validatorsById } from '../../../src/generated/validators.js';
import { ConnectionForm } from '../../../src/web/pages/adapters/ConnectionForm';
import { checkValue, type SchemaNode } from '../../../src/web/pages/adapters/connectionForm/schemaCheck';
import { getNotifications } from '../../../src/web/app/notifications/notifications';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';

// A vendor-shaped connection schema with two auth variants, a nested secret in each and sections: the catalogue's own
// schemas change as adapters are added, so the flows below pin theirs (the network scanner form reads the catalogue).
const zabbixLike = {
  $id: 'cartograph:adapters/zabbix/connection',
  type: 'object',
  required: ['base_url', 'auth'],
  additionalProperties: false,
  properties: {
    base_url: { type: 'string', title: 'Zabbix URL', format: 'uri', pattern: '^https?://', 'x-order': 1, 'x-group': 'Connection' },
    auth: {
      type: 'object',
      title: 'Authentication',
      'x-order': 21,
      'x-group': 'Authentication',
      oneOf: [
        {
          type: 'object', title: 'API token (Zabbix 5.4+)', required: ['auth_type', 'api_token'],
          properties: { auth_type: { type: 'string', const: 'api_token', default: 'api_token' }, api_token: { type: 'string', title: 'API token', minLength: 1, 'x-secret': true } },
        },
        {
          type: 'object', title: 'User and password', required: ['auth_type', 'username', 'password'],
          properties: {
            auth_type: { type: 'string', const: 'user_password' },
            username: { type: 'string', title: 'User name', minLength: 1 },
            password: { type: 'string', title: 'Password', minLength: 1, 'x-secret': true },
          },
        },
      ],
    },
    verify_ssl: { type: 'boolean', title: 'Verify TLS certificate', default: true, 'x-order': 91, 'x-group': 'Network' },
    timeout_seconds: { type: 'integer', title: 'Request timeout (seconds)', minimum: 5, maximum: 600, default: 60, 'x-order': 94, 'x-group': 'Network' },
  },
};

const createRoute_ = { path: '/adapters/connection/create/{id}', name: 'adapters-connection-create-id', layout: 'default', permission: 'adapters.add_connection', page: 'adapters/ConnectionForm' } as RouteEntry;
const editRoute = { ...createRoute_, path: '/adapters/connection/edit/{id}', name: 'adapters-connection-edit-id', permission: 'adapters.change_connection' } as RouteEntry;

const adapterAnswer = (slug: string, name: string, canFetch = true) => ({ body: { id: slug, slug, name, description: `${name} hosts.`, can_fetch: canFetch, engine: canFetch ? 'http' : null, status: 4 } });
const connectors = { body: { count: 2, results: [{ id: 1, name: 'Default', is_default: true }, { id: 4, name: 'DMZ', is_default: false }] } };
const savedZabbix = {
  id: 9, adapter: 'zabbix', adapter_name: 'Zabbix', name: 'Zabbix prod', description: '', status: 4, status_detail: '', enabled: true, connector: 1, connector_name: 'Default',
  last_checked_at: null, created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z',
  option_connections: [
    { name: 'base_url', typed_value: 'https://zabbix.corp.example.com', is_sensitive: false },
    { name: 'auth', typed_value: { auth_type: 'user_password', username: 'cartograph', password: '**********' }, is_sensitive: false },
  ],
};

/** Renders the form page on `url`; `schemas` seed connection schemas by slug (otherwise they load from the catalogue). */
function renderForm(route: RouteEntry, url: string, schemas: Record<string, unknown> = {}) {
  const rootRoute = createRootRoute();
  const tanstackPath = route.path.replace('{id}', '$id');
  const page = createRoute({ getParentRoute: () => rootRoute, path: tanstackPath, component: () => <ConnectionForm route={route} /> });
  const others = ['/adapters', '/adapters/connections/$id', '/adapters/connections/components/instructions/$tool'].map((path) => createRoute({ getParentRoute: () => rootRoute, path, component: () => null }));
  const router = createRouter({ routeTree: rootRoute.addChildren([page, ...others]), history: createMemoryHistory({ initialEntries: [url] }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const [slug, schema] of Object.entries(schemas)) client.setQueryData(['adapter-connection-schema', slug], schema);
  return render(<QueryClientProvider client={client}><RouterProvider router={router} /></QueryClientProvider>);
}

const type = (label: string | RegExp, value: string) => {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input, { target: { value } });
};
/** The error or help text tied to a control through aria-describedby. */
const describedText = (label: string | RegExp) =>
  (screen.getByLabelText(label).getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');

let navigations: { to: string }[];
beforeEach(() => {
  ({ navigations } = signInWith(['adapters.view_connection', 'adapters.add_connection', 'adapters.change_connection', 'connectors.view_connector']));
});
afterEach(() => vi.unstubAllGlobals());

describe('the connection form', () => {
  it('creates a connection with the chosen auth variant nested in option_connections, then opens it', async () => {
    const calls = serveApi({ 'GET /adapters/adapters/zabbix': adapterAnswer('zabbix', 'Zabbix'), 'GET /connectors/connectors': connectors, 'POST /adapters/connections': { status: 201, body: savedZabbix } });
    renderForm(createRoute_, '/adapters/connection/create/zabbix', { zabbix: zabbixLike });
    await screen.findByRole('heading', { name: 'Add Zabbix connection' });
    expect(screen.getByRole('link', { name: 'Zabbix instructions' }).getAttribute('href')).toContain('/adapters/connections/components/instructions/zabbix');
    // The auth variants are a choice by title; the discriminator itself is not an input.
    fireEvent.change(screen.getByLabelText('Authentication'), { target: { value: '1' } });
    await screen.findByLabelText(/User name/);
    expect(screen.queryByLabelText(/Authentication method/)).toBeNull();
    expect(screen.getByLabelText(/^Password/).getAttribute('type')).toBe('password');
    type(/^Name/, 'Zabbix prod');
    type(/Zabbix URL/, 'https://zabbix.corp.example.com');
    type(/User name/, 'cartograph');
    type(/^Password/, 's3cret');
    fireEvent.change(screen.getByLabelText('Connector'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(navigations.map((entry) => entry.to)).toContain('/adapters/connections/9'));
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      adapter: 'zabbix', name: 'Zabbix prod', description: '', enabled: true, connector: 4,
      option_connections: [
        { name: 'base_url', typed_value: 'https://zabbix.corp.example.com' },
        { name: 'auth', typed_value: { auth_type: 'user_password', username: 'cartograph', password: 's3cret' } },
        { name: 'verify_ssl', typed_value: true },
        { name: 'timeout_seconds', typed_value: 60 },
      ],
    });
  });

  it('checks the nested fields before sending and lists the server\'s field errors under their fields', async () => {
    const calls = serveApi({
      'GET /adapters/adapters/zabbix': adapterAnswer('zabbix', 'Zabbix'), 'GET /connectors/connectors': connectors,
      'POST /adapters/connections': { status: 400, body: { name: ['A connection with that name already exists for this adapter.'], 'auth.api_token': ['Ensure this field has at least 20 characters.'] } },
    });
    renderForm(createRoute_, '/adapters/connection/create/zabbix', { zabbix: zabbixLike });
    await screen.findByRole('heading', { name: 'Add Zabbix connection' });
    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(describedText(/API token/)).toContain('The API token field is required.'));
    expect(describedText(/^Name/)).toContain('The Name field is required.');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    type(/^Name/, 'Zabbix prod');
    type(/Zabbix URL/, 'https://zabbix.corp.example.com');
    type(/API token/, 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(describedText(/^Name/)).toContain('A connection with that name already exists for this adapter.'));
    expect(describedText(/API token/)).toContain('Ensure this field has at least 20 characters.');
    expect(navigations).toEqual([]);
  });

  it('tests the unsaved settings and shows the precise reason of a failure', async () => {
    const calls = serveApi({
      'GET /adapters/adapters/zabbix': adapterAnswer('zabbix', 'Zabbix'), 'GET /connectors/connectors': connectors,
      'POST /adapters/test': { body: { success: false, reason: 'unauthorized', detail: 'Zabbix answered 401 to user.login: the API token was refused.' } },
    });
    renderForm(createRoute_, '/adapters/connection/create/zabbix', { zabbix: zabbixLike });
    await screen.findByRole('heading', { name: 'Add Zabbix connection' });
    type(/Zabbix URL/, 'https://zabbix.corp.example.com');
    type(/API token/, 'f1e2d3c4b5a6');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The credentials were refused (401)');
    expect(alert.textContent).toContain('Zabbix answered 401 to user.login: the API token was refused.');
    const test = calls.find((call) => call.url.endsWith('/adapters/test'));
    expect(test?.body).toMatchObject({ adapter: 'zabbix', name: 'Zabbix', option_connections: expect.arrayContaining([{ name: 'auth', typed_value: { auth_type: 'api_token', api_token: 'f1e2d3c4b5a6' } }]) });
  });

  it('edits a connection without re-typing its secret: the masked value goes back and the saved connection is tested', async () => {
    const calls = serveApi({
      'GET /adapters/connections/9': { body: savedZabbix }, 'GET /adapters/adapters/zabbix': adapterAnswer('zabbix', 'Zabbix'), 'GET /connectors/connectors': connectors,
      'POST /adapters/test/9': { body: { success: true, detail: 'Signed in to Zabbix 7.0 as cartograph.' } },
      'PUT /adapters/connections/9': { body: { ...savedZabbix, name: 'Zabbix production' } },
    });
    renderForm(editRoute, '/adapters/connection/edit/9', { zabbix: zabbixLike });
    await screen.findByRole('heading', { name: 'Edit Zabbix prod' });
    const password = screen.getByLabelText(/^Password/) as HTMLInputElement;
    expect(password.value).toBe('');
    expect(password.placeholder).toBe('Stored: leave empty to keep it');
    expect((screen.getByLabelText(/User name/) as HTMLInputElement).value).toBe('cartograph');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('status')).textContent).toContain('Signed in to Zabbix 7.0 as cartograph.');
    type(/^Name/, 'Zabbix production');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(navigations.map((entry) => entry.to)).toContain('/adapters/connections/9'));
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toMatchObject({ name: 'Zabbix production', connector: 1 });
    expect((put?.body as { option_connections: unknown[] }).option_connections).toContainEqual({ name: 'auth', typed_value: { auth_type: 'user_password', username: 'cartograph', password: '**********' } });
  });

  it('shows no form for an adapter without an engine: it is Not available yet, with a link to its instructions', async () => {
    const calls = serveApi({ 'GET /adapters/adapters/zabbix': adapterAnswer('zabbix', 'Zabbix', false), 'GET /connectors/connectors': connectors });
    renderForm(createRoute_, '/adapters/connection/create/zabbix', { zabbix: zabbixLike });
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('Not available yet');
    expect(note.textContent).toContain('Cartograph cannot fetch from Zabbix yet, so no connection can be added.');
    expect(screen.getByRole('link', { name: 'Zabbix instructions' }).getAttribute('href')).toBe('/adapters/connections/components/instructions/zabbix');
    expect(screen.queryByRole('heading', { name: 'Add Zabbix connection' })).toBeNull();
    expect(screen.queryByLabelText(/Zabbix URL/)).toBeNull();
    expect(screen.queryByLabelText(/^Name/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create connection' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Test connection' })).toBeNull();
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('edits a column mapping as rows and sends the chosen file source branch', async () => {
    const csvLike = {
      $id: 'cartograph:adapters/csvfile/connection', type: 'object', required: ['source'], additionalProperties: false,
      properties: {
        source: {
          type: 'object', title: 'File source', 'x-order': 1, 'x-group': 'Connection',
          oneOf: [
            { type: 'object', title: 'File on the Cartograph server', required: ['source_type', 'file_path'], properties: { source_type: { type: 'string', const: 'path' }, file_path: { type: 'string', title: 'File path', pattern: '^/' } } },
            { type: 'object', title: 'Download from a URL', required: ['source_type', 'file_url'], properties: { source_type: { type: 'string', const: 'url' }, file_url: { type: 'string', title: 'File URL', format: 'uri' }, authorization_header: { type: 'string', title: 'Authorization header', 'x-secret': true } } },
          ],
        },
        column_map: { type: 'object', title: 'Column mapping', additionalProperties: { type: 'string', minLength: 1 }, default: {}, 'x-order': 2, 'x-group': 'Options' },
      },
    };
    const calls = serveApi({ 'GET /adapters/adapters/csvfile': adapterAnswer('csvfile', 'CSV file'), 'GET /connectors/connectors': connectors, 'POST /adapters/connections': { status: 201, body: { ...savedZabbix, id: 12 } } });
    renderForm(createRoute_, '/adapters/connection/create/csvfile', { csvfile: csvLike });
    await screen.findByRole('heading', { name: 'Add CSV file connection' });
    type(/^Name/, 'Nightly export');
    fireEvent.change(screen.getByLabelText('File source'), { target: { value: '1' } });
    await screen.findByLabelText(/File URL/);
    type(/File URL/, 'https://files.corp.example.com/devices.csv');
    fireEvent.click(screen.getByRole('button', { name: 'Add a mapping' }));
    fireEvent.change(screen.getByLabelText('Source'), { target: { value: 'Computer Name' } });
    fireEvent.change(screen.getByLabelText('Cartograph field'), { target: { value: 'Hostname' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(navigations.map((entry) => entry.to)).toContain('/adapters/connections/12'));
    expect((calls.find((call) => call.method === 'POST')?.body as { option_connections: unknown }).option_connections).toEqual([
      { name: 'source', typed_value: { source_type: 'url', file_url: 'https://files.corp.example.com/devices.csv' } },
      { name: 'column_map', typed_value: { 'Computer Name': 'Hostname' } },
    ]);
  });

  it('uses the network scanner\'s own form: a bad target is refused and the probe count follows the settings', async () => {
    const calls = serveApi({ 'GET /adapters/adapters/network-scanner': adapterAnswer('network-scanner', 'Network scanner'), 'GET /connectors/connectors': connectors });
    renderForm(createRoute_, '/adapters/connection/create/network-scanner');
    await screen.findByRole('heading', { name: 'Add Network scanner connection' });
    type(/^Name/, 'Office LAN');
    type(/^Targets/, '10.0.0.0/24, 10.0.1.300');
    await waitFor(() => expect(describedText(/^Targets/)).toContain('The Targets is not valid. "10.0.1.300" is not an IPv4 address.'));
    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    type(/^Targets/, '10.0.0.0/24');
    type(/^Ports/, '22,80,443-445');
    expect(screen.getByText(/254 addresses × 5 ports = 1,270 probes/)).toBeTruthy();
    type(/^Targets/, '10.0.0.0/15');
    expect(screen.getAllByText(/one connection scans at most 65,536/).length).toBeGreaterThan(0);
  });
});

const catalogueSchemas = import.meta.glob<SchemaNode & { $id: string; examples?: unknown[] }>('../../../schemas/adapters/*/connection.schema.json', { eager: true, import: 'default' });

/** Values around each example: the example, each required property left out, each property of the wrong type, emptied auth. */
function variantsOf(example: Record<string, unknown>, schema: SchemaNode): unknown[] {
  const variants: unknown[] = [example, {}];
  for (const name of schema.required ?? []) variants.push(Object.fromEntries(Object.entries(example).filter(([key]) => key !== name)));
  for (const name of Object.keys(example)) variants.push({ ...example, [name]: typeof example[name] === 'string' ? 42 : 'text' });
  const auth = example.auth as Record<string, unknown> | undefined;
  if (auth) for (const name of Object.keys(auth)) variants.push({ ...example, auth: { ...auth, [name]: '' } });
  return variants;
}

describe('the console\'s connection schema checks', () => {
  it('agree with the server\'s validators on every catalogue example and its broken variants', () => {
    let compared = 0;
    for (const schema of Object.values(catalogueSchemas)) {
      const server = validatorsById[schema.$id]!;
      for (const example of (schema.examples ?? []) as Record<string, unknown>[]) {
        for (const value of variantsOf(example, schema)) {
          const serverValid = Boolean(server(structuredClone(value)));
          expect({ schema: schema.$id, value, valid: checkValue(schema, value).length === 0 }).toEqual({ schema: schema.$id, value, valid: serverValid });
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('the connection form with stored secrets', () => {
  const csvWithHeader = {
    $id: 'cartograph:adapters/csvfile/connection', type: 'object', required: ['source'], additionalProperties: false,
    properties: {
      source: {
        type: 'object', title: 'File source', 'x-order': 1, 'x-group': 'Connection',
        oneOf: [
          { type: 'object', title: 'Download from a URL', required: ['source_type', 'file_url'], properties: { source_type: { type: 'string', const: 'url' }, file_url: { type: 'string', title: 'File URL', format: 'uri' }, authorization_header: { type: 'string', title: 'Authorization header', 'x-secret': true } } },
        ],
      },
    },
  };
  const savedExport = {
    ...savedZabbix, id: 14, adapter: 'csvfile', adapter_name: 'CSV file', name: 'Nightly export',
    option_connections: [{ name: 'source', typed_value: { source_type: 'url', file_url: 'https://files.corp.example.com/devices.csv', authorization_header: '**********' }, is_sensitive: false }],
  };

  it('tests edited settings without saving them: the test names the connection, whose stored secret the server uses', async () => {
    const calls = serveApi({
      'GET /adapters/connections/9': { body: savedZabbix }, 'GET /adapters/adapters/zabbix': adapterAnswer('zabbix', 'Zabbix'), 'GET /connectors/connectors': connectors,
      'POST /adapters/test': { body: { success: true, detail: 'Signed in to Zabbix 7.0 as cartograph.' } },
    });
    renderForm(editRoute, '/adapters/connection/edit/9', { zabbix: zabbixLike });
    await screen.findByRole('heading', { name: 'Edit Zabbix prod' });
    type(/Zabbix URL/, 'https://zabbix-new.corp.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('status')).textContent).toContain('Signed in to Zabbix 7.0 as cartograph.');
    const test = calls.find((call) => call.method === 'POST' && call.url === '/adapters/test');
    expect(test?.body).toMatchObject({
      adapter: 'zabbix', connection: 9,
      option_connections: expect.arrayContaining([
        { name: 'base_url', typed_value: 'https://zabbix-new.corp.example.com' },
        { name: 'auth', typed_value: { auth_type: 'user_password', username: 'cartograph', password: '**********' } },
      ]),
    });
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('clears a stored optional secret: saving then leaves it out', async () => {
    const calls = serveApi({
      'GET /adapters/connections/14': { body: savedExport }, 'GET /adapters/adapters/csvfile': adapterAnswer('csvfile', 'CSV file'), 'GET /connectors/connectors': connectors,
      'PUT /adapters/connections/14': { body: savedExport },
    });
    renderForm(editRoute, '/adapters/connection/edit/14', { csvfile: csvWithHeader });
    await screen.findByRole('heading', { name: 'Edit Nightly export' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear the stored secret' }));
    expect(describedText(/^Authorization header/)).toContain('The stored secret is removed when you save.');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1));
    expect((calls.find((call) => call.method === 'PUT')?.body as { option_connections: unknown }).option_connections).toEqual([
      { name: 'source', typed_value: { source_type: 'url', file_url: 'https://files.corp.example.com/devices.csv' } },
    ]);
  });

  it('offers no clearing of a required secret', async () => {
    serveApi({ 'GET /adapters/connections/9': { body: savedZabbix }, 'GET /adapters/adapters/zabbix': adapterAnswer('zabbix', 'Zabbix'), 'GET /connectors/connectors': connectors });
    renderForm(editRoute, '/adapters/connection/edit/9', { zabbix: zabbixLike });
    await screen.findByRole('heading', { name: 'Edit Zabbix prod' });
    expect(screen.queryByRole('button', { name: 'Clear the stored secret' })).toBeNull();
  });
});

/** Records the uploads the form sends (the browser's XMLHttpRequest, which reports upload progress) and answers them. */
class RecordedUpload {
  static sent: RecordedUpload[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    RecordedUpload.sent.push(this);
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('the connection form of a file source', () => {
  const csvUpload = {
    $id: 'cartograph:adapters/csvfile/connection', type: 'object', required: ['source'], additionalProperties: false,
    properties: {
      source: {
        type: 'object', title: 'File source', 'x-order': 1, 'x-group': 'Connection',
        oneOf: [
          { type: 'object', title: 'Uploaded file', required: ['source_type'], properties: { source_type: { type: 'string', const: 'upload' }, file: { type: 'string', title: 'File', 'x-widget': 'file' }, file_name: { type: 'string', title: 'File name' } } },
        ],
      },
    },
  };
  /** The create form of a CSV connection named "Asset export", whose save answers connection 12. */
  async function openAssetExportForm(schema: unknown) {
    const calls = serveApi({
      'GET /adapters/adapters/csvfile': adapterAnswer('csvfile', 'CSV file'), 'GET /connectors/connectors': connectors,
      'POST /adapters/connections': { status: 201, body: { ...savedZabbix, id: 12, adapter: 'csvfile', name: 'Asset export' } },
    });
    renderForm(createRoute_, '/adapters/connection/create/csvfile', { csvfile: schema });
    await screen.findByRole('heading', { name: 'Add CSV file connection' });
    type(/^Name/, 'Asset export');
    return calls;
  }
  beforeEach(() => {
    RecordedUpload.sent = [];
    vi.stubGlobal('XMLHttpRequest', RecordedUpload);
  });

  it('saves the connection, then streams the chosen file to its upload endpoint with the progress shown, never inline', async () => {
    const calls = await openAssetExportForm(csvUpload);
    const devices = new File(['hostname,serial\nweb-01,SRV123\n'], 'devices.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('File'), { target: { files: [devices] } });
    expect(screen.getByText(/devices\.csv \(0\.00 MB\) is uploaded when you save\./)).toBeTruthy();

    // A test cannot read a file that is not uploaded yet: it says so instead of testing something else.
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/devices\.csv is uploaded when the connection is saved/);
    expect(calls.some((call) => call.url.startsWith('/adapters/test'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(RecordedUpload.sent).toHaveLength(1));
    const created = calls.find((call) => call.method === 'POST' && call.url === '/adapters/connections');
    expect((created?.body as { option_connections: unknown }).option_connections).toEqual([{ name: 'source', typed_value: { source_type: 'upload' } }]);
    const [upload] = RecordedUpload.sent;
    expect([upload!.method, upload!.url]).toEqual(['POST', '/adapters/connections/12/file']);
    expect(upload!.headers.authorization).toMatch(/^Bearer /);
    expect((upload!.body!.get('file') as File).name).toBe('devices.csv');

    act(() => upload!.progress(512, 1024));
    expect(screen.getByText('Uploading devices.csv: 50%')).toBeTruthy();
    expect(navigations).toEqual([]);
    act(() => upload!.respond(200, { id: 12, file_name: 'devices.csv', size: 1024 }));
    await waitFor(() => expect(navigations.map((entry) => entry.to)).toContain('/adapters/connections/12'));
  });

  it('uploads nothing when another source is chosen after the file', async () => {
    const withUrl = { ...csvUpload, properties: { source: { ...csvUpload.properties.source, oneOf: [...csvUpload.properties.source.oneOf, { type: 'object', title: 'Download from a URL', required: ['source_type', 'file_url'], properties: { source_type: { type: 'string', const: 'url' }, file_url: { type: 'string', title: 'File URL', format: 'uri' } } }] } } };
    const calls = await openAssetExportForm(withUrl);
    fireEvent.change(screen.getByLabelText('File'), { target: { files: [new File(['hostname\n'], 'devices.csv')] } });
    fireEvent.change(screen.getByLabelText('File source'), { target: { value: '1' } });
    await screen.findByLabelText(/File URL/);
    type(/File URL/, 'https://files.corp.example.com/devices.csv');
    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(navigations.map((entry) => entry.to)).toContain('/adapters/connections/12'));
    expect(calls.some((call) => call.method === 'POST' && call.url === '/adapters/connections')).toBe(true);
    expect(RecordedUpload.sent).toEqual([]);
  });

  it('opens the saved connection for another try when the upload is refused, with the server\'s reason', async () => {
    await openAssetExportForm(csvUpload);
    fireEvent.change(screen.getByLabelText('File'), { target: { files: [new File(['\u0000\u0001'], 'devices.csv')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Create connection' }));
    await waitFor(() => expect(RecordedUpload.sent).toHaveLength(1));
    act(() => RecordedUpload.sent[0]!.respond(400, { file: ['The file is not CSV text: its content was checked, whatever its name says.'] }));
    await waitFor(() => expect(navigations.map((entry) => entry.to)).toEqual(['/adapters/connection/edit/12']));
    expect(getNotifications().map((notification) => notification.text)).toContainEqual(expect.stringContaining('The file is not CSV text'));
  });
});

