import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { registerVocabulary } from '../../../src/core/schemaVocabulary';
import { formModelOf, type EntitySchema } from '../../../src/web/renderers/form/formSchema';
import { SchemaForm } from '../../../src/web/renderers/form/SchemaForm';
import { PrecompiledFormValidator } from '../../../src/web/renderers/form/validator';

// A schema of the test's own, validated by a validator compiled here (tests run without the console's CSP).
const schema = {
  $id: 'test:maintenance-window',
  title: 'Maintenance window',
  type: 'object',
  required: ['starts_on'],
  properties: {
    starts_on: { type: 'string', format: 'date', description: 'First day.', 'x-rules': 'required|min_date:2024-01-01' },
    note: { type: 'string', maxLength: 20, description: 'Why.', 'x-widget': 'textarea' },
    hosts: { type: 'array', maxItems: 3, items: { type: 'string', description: 'Host name.' }, description: 'Hosts it covers.' },
  },
} as const;
const validator = new PrecompiledFormValidator({ [schema.$id]: registerVocabulary(new Ajv({ strict: false, allErrors: true })).compile(schema) });
const model = formModelOf(schema as unknown as EntitySchema);

describe('dates in schema forms', () => {
  it('accept any date format of spec §5 and store yyyy-MM-dd once the field loses focus', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<SchemaForm model={model} validator={validator} onSubmit={onSubmit} />);
    const date = screen.getByLabelText(/^Starts On/);
    expect(date.getAttribute('placeholder')).toMatch(/yyyy/);
    fireEvent.change(date, { target: { value: '25.03.2024' } });
    fireEvent.blur(date);
    await waitFor(() => expect((date as HTMLInputElement).value).toBe('2024-03-25'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ starts_on: '2024-03-25' }));
  });

  it('report a date before the minimum with the min_date message', async () => {
    render(<SchemaForm model={model} validator={validator} onSubmit={async () => undefined} />);
    const date = screen.getByLabelText(/^Starts On/);
    fireEvent.change(date, { target: { value: '31/12/2023' } });
    fireEvent.blur(date);
    expect(await screen.findByText('The Starts On field must be after 2024-01-01.')).toBeTruthy();
  });

  it('render multiline text as a textarea and check its schema length on blur', async () => {
    render(<SchemaForm model={model} validator={validator} onSubmit={async () => undefined} />);
    const note = screen.getByLabelText(/^Note/);
    expect(note.tagName).toBe('TEXTAREA');
    fireEvent.change(note, { target: { value: 'far too long for twenty characters' } });
    fireEvent.blur(note);
    expect(await screen.findByText('The Note field may not be greater than 20 characters.')).toBeTruthy();
  });

  it('give a list without a widget Add and Remove buttons in words', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<SchemaForm model={model} validator={validator} initialValues={{ starts_on: '2024-03-25' }} onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const host = await screen.findByRole('textbox', { name: /hosts/i });
    fireEvent.change(host, { target: { value: 'web01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ starts_on: '2024-03-25', hosts: ['web01'] }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /hosts/i })).toBeNull());
  });
});
