import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AdapterConnectionForm, adapterStory, CatalogueOverview, catalogue } from './adapterFormStory';

/**
 * Every adapter's connection form, generated from the catalogue: Storybook appends one story per folder of
 * schemas/adapters (connectionFormStories.node.ts), so no adapter story is written by hand. Light and dark come from
 * the toolbar's theme. stories/adapters/connectionForms.test.tsx renders them all in one looping test (the
 * all-stories test runs the static story below, which Vite serves without the generated ones).
 */
const meta: Meta<typeof AdapterConnectionForm> = {
  title: 'Adapters/Connection forms',
  component: AdapterConnectionForm,
  parameters: { layout: 'padded' },
  argTypes: { slug: { control: false } },
};

export default meta;

/** An index of the catalogue's forms: sections, auth variants and secrets of every adapter, to find one to open. */
export const Catalogue: StoryObj<typeof AdapterConnectionForm> = {
  args: { slug: '' },
  render: () => <CatalogueOverview />,
  play: async ({ canvasElement }) => {
    const rows = within(canvasElement).getAllByRole('row');
    await expect(rows.length).toBe(catalogue.length + 1);
  },
};

// The generated stories call this; referencing it keeps the import when the file is read on its own.
void adapterStory;
