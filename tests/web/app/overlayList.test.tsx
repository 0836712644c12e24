import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { OverlayListHost } from '../../../src/web/app/overlay/OverlayListHost';
import { closeOverlayList, filterOverlayItems, openOverlayList } from '../../../src/web/app/overlay/overlayList';

const adapters = [
  { name: 'CrowdStrike Falcon', slug: 'crowdstrike' },
  { name: 'Okta', slug: 'okta' },
  { name: 'Microsoft Entra ID', slug: 'azure-ad' },
];

describe('overlay list search', () => {
  it('shows every item until at least two characters are typed', () => {
    expect(filterOverlayItems(adapters, ['name'], '')).toEqual(adapters);
    expect(filterOverlayItems(adapters, ['name'], 'o')).toEqual(adapters);
  });

  it('matches case-insensitively in any searchBy key and keeps the original order (no scoring)', () => {
    expect(filterOverlayItems(adapters, ['name', 'slug'], 'AZ')).toEqual([adapters[2]]);
    expect(filterOverlayItems(adapters, ['name'], 'ok')).toEqual([adapters[1]]);
    expect(filterOverlayItems(adapters, ['name', 'slug'], 'r')).toEqual(adapters);
    expect(filterOverlayItems(adapters, ['name', 'slug'], 'ro')).toEqual([adapters[0], adapters[2]]);
  });

  it('does not match fuzzily', () => {
    expect(filterOverlayItems(adapters, ['name'], 'crwd')).toEqual([]);
  });
});

describe('the global overlay list', () => {
  it('searches, shows "No data found", and calls the click handler of a clickable item, then hides', () => {
    const onClick = vi.fn();
    render(<OverlayListHost />);
    act(() => openOverlayList({ title: 'Adapters', items: adapters, clickable: true, searchBy: ['name', 'slug'], onClick }));
    const search = screen.getByPlaceholderText('Type to search');
    act(() => void fireEvent.change(search, { target: { value: 'zz' } }));
    expect(screen.getByText('No data found')).toBeTruthy();
    act(() => void fireEvent.change(search, { target: { value: 'okt' } }));
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Okta' })));
    expect(onClick).toHaveBeenCalledWith(adapters[1]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('renders items with a custom render and does not make non-clickable items buttons', () => {
    render(<OverlayListHost />);
    act(() => openOverlayList({ title: 'Sources', items: adapters, searchBy: ['name'], render: (item) => <em>{item.slug}</em> }));
    expect(screen.getByText('crowdstrike').tagName).toBe('EM');
    expect(screen.queryByRole('button', { name: 'crowdstrike' })).toBeNull();
    act(() => closeOverlayList());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('hides on Escape', () => {
    render(<OverlayListHost />);
    act(() => openOverlayList({ title: 'Adapters', items: adapters, searchBy: ['name'] }));
    act(() => void fireEvent.keyDown(window, { key: 'Escape' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
