import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { updateSession, type Adapter } from '../../../src/web/app/session/session';
import { fuzzySearch } from '../../../src/web/pages/adapters/adapterSearch';
import { Adapters } from '../../../src/web/pages/adapters/Adapters';
import { Instructions } from '../../../src/web/pages/adapters/Instructions';
import { renderPage } from './renderPage';

const adapter = (name: string, slug: string, categories: string[], status = 4): Adapter => ({ id: slug, name, slug, categories, status });
const catalogue = [
  adapter('Cartograph', 'cartograph', ['device', 'user'], 6),
  adapter('CrowdStrike Falcon', 'crowdstrike', ['device', 'vulnerability'], 1),
  adapter('Okta', 'okta', ['user', 'device'], 3),
  adapter('Qualys VMDR', 'qualys', ['vulnerability']),
];

describe('the adapters page', () => {
  beforeEach(() => updateSession({ adapters: catalogue }));

  it('searches fuzzily on name and slug with threshold 0.2, and an empty search returns all in order', () => {
    expect(fuzzySearch(catalogue, '')).toEqual(catalogue);
    expect(fuzzySearch(catalogue, 'crowdstrik').map((found) => found.slug)).toEqual(['crowdstrike']);
    expect(fuzzySearch(catalogue, 'okat').map((found) => found.slug)).toEqual([]);
    expect(fuzzySearch(catalogue, 'QUALYS').map((found) => found.slug)).toEqual(['qualys']);
  });

  it('shows every adapter with its status, counts per category, and filters as the user types', async () => {
    renderPage(Adapters, '/adapters', '/adapters');
    await screen.findByRole('heading', { name: 'Adapters' });
    expect(screen.getByText('4 adapters, 2 configured.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Vulnerabilities (2)' })).toBeTruthy();
    const grid = screen.getByRole('tabpanel');
    expect(within(grid).getByText('CrowdStrike Falcon').closest('li')?.textContent).toContain('Done');
    expect(within(grid).getByText('Okta').closest('li')?.textContent).toContain('Error');
    fireEvent.change(screen.getByLabelText('Search adapters'), { target: { value: 'okta' } });
    expect(within(screen.getByRole('tabpanel')).queryByText('CrowdStrike Falcon')).toBeNull();
    expect(screen.getByRole('tab', { name: 'All (1)' })).toBeTruthy();
  });

  it('renders an adapter\'s instructions from its Markdown, with an add-connection link', async () => {
    renderPage(Instructions, '/instructions/$tool', '/instructions/okta');
    await screen.findByRole('heading', { name: 'Okta', level: 1 });
    expect(screen.getByRole('heading', { name: 'What to grant on the vendor side' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add connection' }).getAttribute('href')).toBe('/adapters/connection/create/okta');
  });

  it('shows Not Found for a tool without instructions', async () => {
    renderPage(Instructions, '/instructions/$tool', '/instructions/no-such-tool');
    await screen.findByRole('heading', { name: 'Page Not Found' });
  });
});
