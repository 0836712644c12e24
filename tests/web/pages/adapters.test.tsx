import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { updateSession, type Adapter } from '../../../src/web/app/session/session';
import { fuzzySearch } from '../../../src/web/pages/adapters/adapterSearch';
import { Adapters } from '../../../src/web/pages/adapters/Adapters';
import { Instructions } from '../../../src/web/pages/adapters/Instructions';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

const adapter = (name: string, slug: string, categories: string[], status = 4, extra: Partial<Adapter> = {}): Adapter => ({ id: slug, name, slug, categories, status, ...extra });
const fetching = (entities: string[]): Partial<Adapter> => ({ can_fetch: true, entities, verified_by_replay: true });
const catalogue = [
  adapter('Cartograph', 'cartograph', ['device', 'user'], 6),
  adapter('CrowdStrike Falcon', 'crowdstrike', ['device', 'vulnerability'], 1, fetching(['device', 'software', 'vulnerability'])),
  adapter('Okta', 'okta', ['user', 'device'], 3, fetching(['user', 'device'])),
  adapter('Qualys VMDR', 'qualys', ['vulnerability'], 4, fetching(['device', 'vulnerability'])),
];
const azure = adapter('Microsoft Azure', 'azure', ['device'], 4, { can_fetch: false, entities: [], verified_by_replay: false });

describe('the adapters page', () => {
  beforeEach(() => {
    signInWith(['adapters.view_connection', 'adapters.add_connection']);
    updateSession({ adapters: catalogue });
  });

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

  it('shows no status badge on the built-in pseudo-adapters (status 6), which fetch nothing of their own', async () => {
    renderPage(Adapters, '/adapters', '/adapters');
    const card = (await screen.findByText('Cartograph')).closest('li')!;
    expect(card.querySelector('.ui-badge')).toBeNull();
    expect(card.textContent).not.toContain('Done');
  });

  it('offers no Add connection, on the cards or the instructions, to a user without adapters.add_connection', async () => {
    signInWith(['adapters.view_connection']);
    updateSession({ adapters: catalogue });
    const cards = renderPage(Adapters, '/adapters', '/adapters');
    const card = (await screen.findByText('CrowdStrike Falcon')).closest('li')!;
    expect(within(card).getByRole('link', { name: 'Connections' })).toBeTruthy();
    expect(within(card).queryByRole('link', { name: 'Add connection' })).toBeNull();
    cards.unmount();
    renderPage(Instructions, '/instructions/$tool', '/instructions/okta');
    await screen.findByRole('heading', { name: 'Okta', level: 1 });
    expect(screen.queryByRole('link', { name: 'Add connection' })).toBeNull();
  });

  it('renders an adapter\'s instructions from its Markdown, with an add-connection link', async () => {
    renderPage(Instructions, '/instructions/$tool', '/instructions/okta');
    await screen.findByRole('heading', { name: 'Okta', level: 1 });
    expect(screen.getByRole('heading', { name: 'What to grant on the vendor side' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add connection' }).getAttribute('href')).toBe('/adapters/connection/create/okta');
  });

  it('shows on each card what the adapter fetches and that a replay verifies it, with its connection links', async () => {
    renderPage(Adapters, '/adapters', '/adapters');
    const card = (await screen.findByText('CrowdStrike Falcon')).closest('li')!;
    expect(within(card).getByText('Fetches Devices, Software, Vulnerabilities.')).toBeTruthy();
    expect(within(card).getByText('Verified by a replay')).toBeTruthy();
    expect(within(card).queryByText('Not available yet')).toBeNull();
    expect(within(card).getByRole('link', { name: 'Add connection' }).getAttribute('href')).toBe('/adapters/connection/create/crowdstrike');
    expect(within(card).getByRole('link', { name: 'Connections' })).toBeTruthy();
  });

  it('marks an adapter that cannot fetch Not available yet, with its instructions but no way to add a connection', async () => {
    updateSession({ adapters: [...catalogue, azure] });
    renderPage(Adapters, '/adapters', '/adapters');
    const card = (await screen.findByText('Microsoft Azure')).closest('li')!;
    expect(within(card).getByText('Not available yet')).toBeTruthy();
    expect(within(card).queryByText(/^Fetches/)).toBeNull();
    expect(within(card).queryByText('Verified by a replay')).toBeNull();
    expect(within(card).queryByText('Not configured')).toBeNull();
    expect(within(card).queryByRole('link', { name: 'Add connection' })).toBeNull();
    expect(within(card).queryByRole('link', { name: 'Connections' })).toBeNull();
    expect(within(card).getByRole('link', { name: 'Instructions' }).getAttribute('href')).toBe('/adapters/connections/components/instructions/azure');
  });

  it("shows on an adapter's instructions what it fetches and that a replay verifies it", async () => {
    renderPage(Instructions, '/instructions/$tool', '/instructions/okta');
    await screen.findByRole('heading', { name: 'Okta', level: 1 });
    expect(screen.getByText('Fetches Users, Devices.')).toBeTruthy();
    expect(screen.getByText('Verified by a replay')).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('marks the instructions of an adapter that cannot fetch Not available yet, without an add-connection link', async () => {
    updateSession({ adapters: [...catalogue, azure] });
    renderPage(Instructions, '/instructions/$tool', '/instructions/azure');
    await screen.findByRole('note');
    expect(screen.getByText('Not available yet')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('Cartograph cannot fetch from Microsoft Azure yet, so no connection can be added.');
    expect(screen.queryByRole('link', { name: 'Add connection' })).toBeNull();
    expect(screen.queryByText(/^Fetches/)).toBeNull();
  });

  it('shows Not Found for a tool without instructions', async () => {
    renderPage(Instructions, '/instructions/$tool', '/instructions/no-such-tool');
    await screen.findByRole('heading', { name: 'Page Not Found' });
  });
});
