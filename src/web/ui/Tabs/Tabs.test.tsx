import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Tabs, type TabItem } from './Tabs';

const tabs: TabItem[] = [
  { id: 'general', label: 'General', content: 'General settings' },
  { id: 'ldap', label: 'LDAP', content: 'LDAP settings', disabled: true },
  { id: 'smtp', label: 'SMTP', content: 'SMTP settings' },
  { id: 'tokens', label: 'Tokens', content: 'Token list' },
];

describe('Tabs', () => {
  it('opens the first enabled tab and labels its panel by it', () => {
    render(<Tabs tabs={tabs} label="Settings" />);
    const tab = screen.getByRole('tab', { name: 'General' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'General' }).textContent).toBe('General settings');
    expect(screen.getByRole('tablist', { name: 'Settings' })).toBeTruthy();
  });

  it('puts only the open tab in the Tab order', () => {
    render(<Tabs tabs={tabs} label="Settings" />);
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1]);
  });

  it('moves with the arrow keys, skipping disabled tabs and wrapping around', () => {
    render(<Tabs tabs={tabs} label="Settings" />);
    const list = screen.getByRole('tablist');
    fireEvent.keyDown(list, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'SMTP' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'SMTP' }));
    fireEvent.keyDown(list, { key: 'ArrowRight' });
    fireEvent.keyDown(list, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(list, { key: 'ArrowLeft' });
    expect(screen.getByRole('tabpanel').textContent).toBe('Token list');
  });

  it('goes to the first and last tab with Home and End', () => {
    render(<Tabs tabs={tabs} label="Settings" defaultValue="smtp" />);
    const list = screen.getByRole('tablist');
    fireEvent.keyDown(list, { key: 'End' });
    expect(screen.getByRole('tabpanel').textContent).toBe('Token list');
    fireEvent.keyDown(list, { key: 'Home' });
    expect(screen.getByRole('tabpanel').textContent).toBe('General settings');
  });

  it('follows the parent when controlled and reports clicks', () => {
    const onValueChange = vi.fn();
    render(<Tabs tabs={tabs} label="Settings" value="smtp" onValueChange={onValueChange} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Tokens' }));
    expect(onValueChange).toHaveBeenCalledWith('tokens');
    expect(screen.getByRole('tabpanel').textContent).toBe('SMTP settings');
  });

  it('as a side navigation, gathers tabs under their group headings and moves with Up and Down', () => {
    const grouped: TabItem[] = [
      { id: 'basic', label: 'Basic info', content: 'Facts', group: 'This asset' },
      { id: 'sources', label: 'Data sources', content: 'Sources', group: 'Where its data comes from' },
      { id: 'tags', label: 'Tags', content: 'Tag list', group: 'This asset' },
    ];
    render(<Tabs tabs={grouped} label="Device" orientation="vertical" />);
    const list = screen.getByRole('tablist', { name: 'Device' });
    expect(list.getAttribute('aria-orientation')).toBe('vertical');
    // A group's tabs stand together under its heading, which describes each of them.
    expect([...list.querySelectorAll('.ui-tabs__group')].map((group) => group.textContent)).toEqual(['This assetBasic infoTags', 'Where its data comes fromData sources']);
    const tagsTab = screen.getByRole('tab', { name: 'Tags' });
    expect(document.getElementById(tagsTab.getAttribute('aria-describedby') ?? '')?.textContent).toBe('This asset');
    // Keys follow the order on screen: Basic info, Tags, then Data sources.
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(screen.getByRole('tabpanel').textContent).toBe('Tag list');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Data sources' }));
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    expect(screen.getByRole('tab', { name: 'Tags' }).getAttribute('aria-selected')).toBe('true');
  });
});
