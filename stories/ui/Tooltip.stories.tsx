import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, within } from 'storybook/test';
import { Button } from '../../src/web/ui/Button/Button';
import { Tooltip } from '../../src/web/ui/Tooltip/Tooltip';

const meta = {
  title: 'UI/Tooltip',
  component: Tooltip,
  args: { content: 'Runs every night at 02:00', children: <Button variant="secondary">Schedule</Button> },
  parameters: { layout: 'centered' },
} satisfies Meta<typeof Tooltip>;
export default meta;
type Story = StoryObj<typeof meta>;

export const OnFocus: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // React's onFocus listens to focusin.
    fireEvent.focusIn(canvas.getByRole('button', { name: 'Schedule' }));
    await expect((await canvas.findByRole('tooltip')).textContent).toBe('Runs every night at 02:00');
  },
};
export const Open: Story = { args: { open: true } };
export const Placements: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 120, padding: 48 }}>
      {(['top', 'right', 'bottom', 'left'] as const).map((placement) => (
        <Tooltip key={placement} content={`Placed ${placement}`} placement={placement} open>
          <Button variant="secondary">{placement}</Button>
        </Tooltip>
      ))}
    </div>
  ),
};
