import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearFieldErrors } from '../../../src/web/app/http';
import { routeByPath } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { CustomAdapterForm } from '../../../src/web/pages/settings/CustomAdapterForm';
import type { CustomFieldFormData } from '../../../src/web/pages/settings/customAdapter/customAdaptersApi';
import { MappingEditor } from '../../../src/web/pages/settings/customAdapter/MappingEditor';
import { adminUser, freshSession, serveApi, tokenWith } from '../app/helpers';
import { renderPage } from '../pages/renderPage';

const deviceFields = ['Hostname', 'SerialNumber', 'IpAddresses', 'MacAddresses', 'DeviceModel', 'FirstSeen'];
const deviceIdentifiers = ['Hostname', 'SerialNumber', 'MacAddresses', 'IpAddresses'];
const entityFields = {
  entities: {
    device: { fields: deviceFields, identifiers: deviceIdentifiers },
    user: { fields: ['Username', 'Email', 'DisplayName'], identifiers: ['Username', 'Email'] },
  },
  categories: { device: 'device', user: 'user' },
};
const adapter = {
  id: 4, name: 'Facilities register', slug: 'facilities-register', description: 'Assets of the facilities team', categories: ['device'], entity: 'device',
  file_type: 'csv', delimiter: ',', connection_count: 1, custom: true, status: 1,
  fields: [
    { column: 'Asset Name', type: 'string', field: 'Hostname', identifier: true },
    { column: 'Model', type: 'string', field: null, identifier: false },
    { column: 'Bought', type: 'string', field: null, identifier: false },
  ],
};

/** The editor as a page holds it: the fields in state, changed by what the editor reports. */
function EditorHarness({ initial, onChange }: { initial: CustomFieldFormData[]; onChange: (fields: CustomFieldFormData[]) => void }) {
  const [fields, setFields] = useState(initial);
  return <MappingEditor fields={fields} entityFields={deviceFields} identifierFields={deviceIdentifiers} columnsFixed onChange={(next) => { setFields(next); onChange(next); }} />;
}

beforeEach(() => {
  freshSession(tokenWith({}));
  clearFieldErrors();
  updateSession({ user: { ...adminUser, permissions: ['customs.view_data', 'customs.change_data', 'customs.add_data'] } as never });
});
afterEach(() => vi.unstubAllGlobals());

describe('the custom adapter mapping editor', () => {
  it('lets only a column mapped to an identifying field be an identifier, and unmapping one clears it', () => {
    const changes: CustomFieldFormData[][] = [];
    render(<EditorHarness initial={adapter.fields as CustomFieldFormData[]} onChange={(fields) => changes.push(fields)} />);
    const modelIdentifies = screen.getByLabelText('Model identifies the record') as HTMLInputElement;
    expect(modelIdentifies.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Field of Model'), { target: { value: 'DeviceModel' } });
    // A model is no identifier: still disabled once mapped.
    expect((screen.getByLabelText('Model identifies the record') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Type of Bought'), { target: { value: 'date' } });
    fireEvent.change(screen.getByLabelText('Field of Asset Name'), { target: { value: '' } });
    expect(changes.at(-1)).toEqual([
      { column: 'Asset Name', type: 'string', field: null, identifier: false },
      { column: 'Model', type: 'string', field: 'DeviceModel', identifier: false },
      { column: 'Bought', type: 'date', field: null, identifier: false },
    ]);
    expect((screen.getByLabelText('Asset Name identifies the record') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getAllByRole('option', { name: 'MAC address' })).toHaveLength(3);
  });

  it('edits an adapter: the changed mapping is sent with PUT, and the server\'s refusal is shown', async () => {
    window.location.hash = '#/settings/custom-adapter/4/edit';
    const calls = serveApi({
      'GET /customs/adapters/4': { body: adapter },
      'GET /customs/adapters/entity-fields': { body: entityFields },
      'PUT /customs/adapters/4': [
        { status: 400, body: { fields: ['Choose at least one identifier column (mapped to one of Hostname, SerialNumber), so the records can be correlated.'] } },
        { body: adapter },
      ],
    });
    const Page = () => <CustomAdapterForm route={routeByPath('/settings/custom-adapter/{id}/edit')!} />;
    renderPage(Page, '/settings/custom-adapter/$id/edit', '/settings/custom-adapter/4/edit');
    await screen.findByText('Slug: facilities-register (connections and group grants name it; it does not change)');
    expect((screen.getAllByLabelText(/^Name/)[0] as HTMLInputElement).value).toBe('Facilities register');
    // Without a sample the column names are typed in, so they can be corrected.
    expect((screen.getByLabelText('Name of column 2') as HTMLInputElement).value).toBe('Model');
    fireEvent.click(screen.getByLabelText('Asset Name identifies the record'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/^fields: Choose at least one identifier column/)).toBeTruthy();

    fireEvent.click(screen.getByLabelText('Asset Name identifies the record'));
    fireEvent.change(screen.getByLabelText('Field of Model'), { target: { value: 'DeviceModel' } });
    fireEvent.change(screen.getByLabelText('Type of Bought'), { target: { value: 'date' } });
    fireEvent.change(screen.getByLabelText('Field of Bought'), { target: { value: 'FirstSeen' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'PUT')[1]!.body).toEqual({
      name: 'Facilities register', description: 'Assets of the facilities team', categories: ['device'], entity: 'device', file_type: 'csv', delimiter: ',',
      fields: [
        { column: 'Asset Name', type: 'string', field: 'Hostname', identifier: true },
        { column: 'Model', type: 'string', field: 'DeviceModel', identifier: false },
        { column: 'Bought', type: 'date', field: 'FirstSeen', identifier: false },
      ],
    });
  });
});
