import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Select } from './Select';

const options = [
  { value: 'ldaps', label: 'LDAPS' },
  { value: 'starttls', label: 'StartTLS' },
  { value: 'plain', label: 'Plain', disabled: true },
];

describe('Select', () => {
  it('is labelled, shows its options and reports the chosen value', () => {
    const onValueChange = vi.fn();
    render(<Select label="Security" options={options} value="ldaps" onValueChange={onValueChange} />);
    const select = screen.getByLabelText('Security') as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual(['LDAPS', 'StartTLS', 'Plain']);
    fireEvent.change(select, { target: { value: 'starttls' } });
    expect(onValueChange).toHaveBeenCalledWith('starttls');
  });

  it('shows options that name a group under that heading', () => {
    const grouped = [{ value: 'category:edr', label: 'EDR', group: 'Kinds of system' }, { value: 'crowdstrike', label: 'CrowdStrike Falcon', group: 'Adapters' }, { value: 'category:mdm', label: 'MDM', group: 'Kinds of system' }];
    render(<Select label="Exported from" options={grouped} value="" onValueChange={() => {}} placeholder="—" />);
    const groups = [...(screen.getByLabelText('Exported from') as HTMLSelectElement).querySelectorAll('optgroup')];
    expect(groups.map((group) => [group.label, [...group.querySelectorAll('option')].map((option) => option.text)])).toEqual([['Kinds of system', ['EDR', 'MDM']], ['Adapters', ['CrowdStrike Falcon']]]);
  });

  it('offers an empty first choice when given a placeholder', () => {
    render(<Select label="Security" options={options} value="" onValueChange={() => {}} placeholder="Choose…" />);
    const select = screen.getByLabelText('Security') as HTMLSelectElement;
    expect(select.options[0].value).toBe('');
    expect(select.options[0].text).toBe('Choose…');
  });

  it('shows its error and is marked invalid', () => {
    render(<Select label="Security" options={options} value="" onValueChange={() => {}} error="The Security field is required." />);
    expect(screen.getByLabelText('Security').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('The Security field is required.');
  });

  it('keeps disabled options unselectable', () => {
    render(<Select label="Security" options={options} value="ldaps" onValueChange={() => {}} />);
    expect((screen.getByRole('option', { name: 'Plain' }) as HTMLOptionElement).disabled).toBe(true);
  });
});
