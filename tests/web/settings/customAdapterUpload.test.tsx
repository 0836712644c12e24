import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeByPath } from '../../../src/web/app/routeTable';
import { updateSession } from '../../../src/web/app/session/session';
import { CustomAdapterUpload } from '../../../src/web/pages/settings/CustomAdapterUpload';
import { adminUser, freshSession, serveApi, tokenWith } from '../app/helpers';
import { renderPage } from '../pages/renderPage';

const adapter = (id: number, name: string) => ({
  id, name, slug: name.toLowerCase().replace(/ /g, '-'), description: '', categories: ['device'], entity: 'device', file_type: 'csv', delimiter: ',', connection_count: 0, custom: true, status: 1,
  fields: [{ column: 'Asset Name', type: 'string', field: 'Hostname', identifier: true }, { column: 'Room', type: 'string', field: null, identifier: false }],
});

beforeEach(() => {
  freshSession(tokenWith({}));
  updateSession({ user: { ...adminUser, permissions: ['customs.view_data', 'customs.upload_custom_data_file'] } as never });
});
afterEach(() => vi.unstubAllGlobals());

describe('the custom adapter data upload page', () => {
  it('preselects the adapter named in the address and tells which columns the file needs', async () => {
    serveApi({ 'GET /customs/adapters': { body: { count: 2, next: null, previous: null, results: [adapter(3, 'Badge readers'), adapter(7, 'Facilities register')] } } });
    const Page = () => <CustomAdapterUpload route={routeByPath('/settings/custom-adapter/upload/initial-data')!} />;
    renderPage(Page, '/settings/custom-adapter/upload/initial-data', '/settings/custom-adapter/upload/initial-data?adapter=7');
    const select = (await screen.findByLabelText('Custom adapter')) as HTMLSelectElement;
    expect(select.selectedOptions[0]?.textContent).toBe('Facilities register');
    expect(screen.getByText('Columns of the adapter: Asset Name, Room. The file must have the identifier columns (Asset Name).')).toBeTruthy();
    // Nothing to send until a file is chosen.
    expect(screen.getByRole('button', { name: 'Upload' }).getAttribute('aria-disabled')).toBe('true');
  });
});
