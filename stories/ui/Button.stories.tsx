import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, within } from 'storybook/test';
import { Button } from '../../src/web/ui/Button/Button';

const meta = {
  title: 'UI/Button',
  component: Button,
  args: { children: 'Save', onClick: fn() },
  argTypes: { variant: { control: 'select', options: ['success', 'secondary', 'danger', 'warning', 'ghost', 'link'] } },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Spec §9: a button is of type success unless told otherwise. */
export const Default: Story = {
  play: async ({ canvasElement, args }) => {
    within(canvasElement).getByRole('button', { name: 'Save' }).click();
    await expect(args.onClick).toHaveBeenCalledTimes(1);
  },
};

export const Variants: Story = {
  render: (args) => (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
      <Button {...args}>Success</Button>
      <Button {...args} variant="secondary">Secondary</Button>
      <Button {...args} variant="danger">Danger</Button>
      <Button {...args} variant="warning">Warning</Button>
      <Button {...args} variant="ghost">Ghost</Button>
      <Button {...args} variant="link">Link</Button>
      <Button {...args} size="small">Small</Button>
    </div>
  ),
};

/** Inert: clicks do nothing, aria-disabled says why, focus still reaches it. */
export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Save' });
    button.click();
    await expect(args.onClick).not.toHaveBeenCalled();
    await expect(button.getAttribute('aria-disabled')).toBe('true');
  },
};

export const Loading: Story = {
  args: { loading: true, children: 'Saving' },
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Saving' });
    button.click();
    await expect(args.onClick).not.toHaveBeenCalled();
    await expect(button.getAttribute('aria-busy')).toBe('true');
  },
};
