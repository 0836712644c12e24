import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellButton } from '../../../src/web/app/shell/ShellButton';

describe('ShellButton', () => {
  it('is a success-type button that does not submit unless told to', () => {
    render(<ShellButton>Save</ShellButton>);
    const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(button.className).toContain('button--success');
    expect(button.type).toBe('button');
    expect(button.disabled).toBe(false);
  });

  it('is inert while loading or disabled', () => {
    render(
      <>
        <ShellButton loading>Saving</ShellButton>
        <ShellButton disabled>Off</ShellButton>
      </>,
    );
    const saving = screen.getByRole('button', { name: 'Saving' }) as HTMLButtonElement;
    expect(saving.disabled).toBe(true);
    expect(saving.getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: 'Off' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
