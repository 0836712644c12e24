import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextInput } from './TextInput';

afterEach(() => vi.useRealTimers());

describe('TextInput', () => {
  it('is labelled and reports every change at once by default (debounce 0 ms)', () => {
    const onValueChange = vi.fn();
    render(<TextInput label="Username" value="" onValueChange={onValueChange} />);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'jane' } });
    expect(onValueChange).toHaveBeenCalledWith('jane');
  });

  it('shows the help message under the field and ties it to the input', () => {
    render(<TextInput label="Email" value="" onValueChange={() => {}} message="Used for reports." />);
    const input = screen.getByLabelText('Email');
    const message = screen.getByText('Used for reports.');
    expect(input.getAttribute('aria-describedby')).toBe(message.id);
  });

  it('shows an error instead of the message, marks the input invalid and describes it by the error', () => {
    render(<TextInput label="Email" value="x" onValueChange={() => {}} message="Used for reports." error="The Email field must be a valid email." />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Used for reports.')).toBeNull();
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe('The Email field must be a valid email.');
    expect(input.getAttribute('aria-describedby')).toBe(error.id);
  });

  it('lists several server errors one per line', () => {
    render(<TextInput label="Name" value="" onValueChange={() => {}} error={['Too short.', 'Already taken.']} />);
    expect(screen.getByRole('alert').querySelectorAll('p')).toHaveLength(2);
  });

  it('with a debounce reports only the last value once typing pauses', () => {
    vi.useFakeTimers();
    const onValueChange = vi.fn();
    render(<TextInput label="Search" value="" onValueChange={onValueChange} debounce={300} />);
    const input = screen.getByLabelText('Search') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'a' } });
    fireEvent.change(input, { target: { value: 'ab' } });
    expect(input.value).toBe('ab');
    expect(onValueChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(300));
    expect(onValueChange).toHaveBeenCalledTimes(1);
    expect(onValueChange).toHaveBeenCalledWith('ab');
  });

  it('drops typing still waiting for its debounce when the parent sets a new value', () => {
    vi.useFakeTimers();
    const onValueChange = vi.fn();
    const { rerender } = render(<TextInput label="Search" value="old" onValueChange={onValueChange} debounce={300} />);
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'typed' } });
    rerender(<TextInput label="Search" value="" onValueChange={onValueChange} debounce={300} />);
    act(() => vi.advanceTimersByTime(300));
    expect(onValueChange).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('');
  });

  it('keeps keys typed after a report when the parent echoes the reported value back', () => {
    vi.useFakeTimers();
    const onValueChange = vi.fn();
    const { rerender } = render(<TextInput label="Search" value="" onValueChange={onValueChange} debounce={300} />);
    const input = screen.getByLabelText('Search') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'ab' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(input, { target: { value: 'abc' } });
    rerender(<TextInput label="Search" value="ab" onValueChange={onValueChange} debounce={300} />);
    expect(input.value).toBe('abc');
    act(() => vi.advanceTimersByTime(300));
    expect(onValueChange.mock.calls).toEqual([['ab'], ['abc']]);
  });

  it('without a debounce shows exactly the value its parent keeps', () => {
    function Upper() {
      const [value, setValue] = useState('');
      return <TextInput label="Code" value={value} onValueChange={(next) => setValue(next.toUpperCase())} />;
    }
    render(<Upper />);
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'abc' } });
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('ABC');
  });

  it('takes a new value from its parent', () => {
    const { rerender } = render(<TextInput label="Name" value="one" onValueChange={() => {}} />);
    rerender(<TextInput label="Name" value="two" onValueChange={() => {}} />);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('two');
  });

  it('marks a required field as required', () => {
    render(<TextInput label="Username" value="" onValueChange={() => {}} required />);
    expect((screen.getByLabelText(/Username/) as HTMLInputElement).required).toBe(true);
  });
});
