import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { schemaRegistry } from '../../../src/generated/schemaRegistry.js';
import { updateSession } from '../../../src/web/app/session/session';
import { connectionFormModel } from '../../../src/web/pages/adapters/connectionForm/connectionModel';
import type { SchemaNode } from '../../../src/web/pages/adapters/connectionForm/schemaCheck';
import { SettingsForm } from '../../../src/web/pages/adapters/connectionForm/SettingsForm';
import { signInWith } from './pageSession';

// The CSV connection form (the catalogue's own schema) asks which system the export comes from: a kind of system or
// an adapter of the catalogue, never another file or database adapter.
const csvSchema = schemaRegistry['cartograph:adapters/csvfile/connection'].schema as unknown as SchemaNode;
const adapter = (slug: string, name: string, engine: string | null, status = 4) => ({ id: slug, slug, name, categories: ['device'], status, engine });

beforeEach(() => {
  signInWith(['adapters.add_connection']);
  updateSession({ adapters: [adapter('cartograph', 'Cartograph', null, 6), adapter('crowdstrike', 'CrowdStrike Falcon', 'http'), adapter('jsonfile', 'JSON file', 'json'), adapter('active-directory', 'Active Directory', 'ldap')] });
});

describe('the "Exported from" choice of a file connection', () => {
  it('offers the kinds of system and the catalogue\'s adapters, and reports the choice', async () => {
    const onValuesChange = vi.fn();
    const model = connectionFormModel(csvSchema, 'create');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <SettingsForm model={model} values={{ entity: 'device' }} onValuesChange={onValuesChange} onFieldBlur={() => {}} errors={{}} storedSecretIds={new Set()} />
      </QueryClientProvider>,
    );
    const select = (await screen.findByLabelText(/^Exported from/)) as HTMLSelectElement;
    await waitFor(() => expect(select.querySelectorAll('optgroup')).toHaveLength(2));
    const [kinds, adapters] = [...select.querySelectorAll('optgroup')].map((group) => [...group.querySelectorAll('option')].map((option) => [option.value, option.text]));
    expect(kinds).toEqual(expect.arrayContaining([['category:edr', 'EDR'], ['category:ad', 'Active Directory'], ['category:cmdb', 'CMDB']]));
    expect(adapters).toEqual([['active-directory', 'Active Directory'], ['crowdstrike', 'CrowdStrike Falcon']]);
    expect(select.options[0]).toMatchObject({ value: '', text: "Not said: counted as this connection's own adapter" });
    fireEvent.change(select, { target: { value: 'crowdstrike' } });
    await waitFor(() => expect(onValuesChange).toHaveBeenCalledWith(expect.objectContaining({ exported_from: 'crowdstrike' }), 'exported_from'));
  });
});
