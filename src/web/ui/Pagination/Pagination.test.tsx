import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Pagination } from './Pagination';
import { pageCount, pageList, rangeText } from './pageList';

describe('pageList', () => {
  it('shows every page when there are few', () => {
    expect(pageList(1, 1)).toEqual([1]);
    expect(pageList(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('replaces long runs of pages by gaps around the current page', () => {
    expect(pageList(6, 20)).toEqual([1, 'gap', 5, 6, 7, 'gap', 20]);
    expect(pageList(1, 20)).toEqual([1, 2, 'gap', 20]);
    expect(pageList(20, 20)).toEqual([1, 'gap', 19, 20]);
  });

  it('never uses a gap for a single missing page', () => {
    expect(pageList(4, 20)).toEqual([1, 2, 3, 4, 5, 'gap', 20]);
  });
});

describe('pageCount and rangeText', () => {
  it('counts pages, with at least one', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });

  it('describes the shown rows', () => {
    expect(rangeText(1, 50, 230)).toBe('1–50 of 230');
    expect(rangeText(5, 50, 230)).toBe('201–230 of 230');
    expect(rangeText(1, 50, 0)).toBe('0 of 0');
  });
});

describe('Pagination', () => {
  it('is a navigation landmark marking the current page', () => {
    render(<Pagination page={2} pageSize={10} count={45} onPageChange={() => {}} />);
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('11–20 of 45')).toBeTruthy();
  });

  it('goes to the next, previous and a numbered page', () => {
    const onPageChange = vi.fn();
    render(<Pagination page={2} pageSize={10} count={45} onPageChange={onPageChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(onPageChange.mock.calls).toEqual([[3], [1], [5]]);
  });

  it('cannot go before the first or after the last page', () => {
    render(<Pagination page={1} pageSize={50} count={20} onPageChange={() => {}} />);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers the page sizes and reports a new one', () => {
    const onPageSizeChange = vi.fn();
    render(<Pagination page={1} pageSize={50} count={500} onPageChange={() => {}} pageSizes={[20, 50, 100]} onPageSizeChange={onPageSizeChange} />);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '100' } });
    expect(onPageSizeChange).toHaveBeenCalledWith(100);
  });
});
