import type { Meta, StoryObj } from '@storybook/react-vite';
import { Field } from '../../src/web/ui/Field/Field';

const meta = {
  title: 'UI/Field',
  component: Field,
  args: {
    label: 'Color',
    message: 'A custom control inside the shared label, message and error layout.',
    children: ({ controlId, describedBy, invalid }) => <input id={controlId} type="color" aria-describedby={describedBy} aria-invalid={invalid || undefined} defaultValue="#1f7a5c" />,
  },
} satisfies Meta<typeof Field>;
export default meta;
type Story = StoryObj<typeof meta>;

export const WithMessage: Story = {};
export const WithError: Story = { args: { error: 'Choose a darker colour.' } };
