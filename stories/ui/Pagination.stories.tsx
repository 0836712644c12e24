import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fireEvent, waitFor, within } from 'storybook/test';
import { Pagination, type PaginationProps } from '../../src/web/ui/Pagination/Pagination';

function Stateful(props: Omit<PaginationProps, 'onPageChange' | 'onPageSizeChange'>) {
  const [page, setPage] = useState(props.page);
  const [size, setSize] = useState(props.pageSize);
  return <Pagination {...props} page={page} pageSize={size} onPageChange={setPage} onPageSizeChange={(next) => { setSize(next); setPage(1); }} />;
}

const meta = { title: 'UI/Pagination', component: Stateful, args: { page: 1, pageSize: 50, count: 1234, pageSizes: [20, 50, 100] } } satisfies Meta<typeof Stateful>;
export default meta;
type Story = StoryObj<typeof meta>;

export const FirstPage: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    fireEvent.click(canvas.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page'));
  },
};
export const MiddlePage: Story = { args: { page: 12 } };
export const LastPage: Story = { args: { page: 25 } };
export const Empty: Story = { args: { count: 0 } };
export const Disabled: Story = { args: { page: 3, disabled: true } };
