import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Table } from './Table';
import { hiddenSides } from './useScrollShadows';

const columns = [{ id: 'name', header: 'Name', cell: (row: { name: string }) => row.name }];

describe('a wide table', () => {
  it('knows which of its sides hide columns', () => {
    expect(hiddenSides({ scrollLeft: 0, scrollWidth: 800, clientWidth: 800 })).toEqual({ start: false, end: false });
    expect(hiddenSides({ scrollLeft: 0, scrollWidth: 1200, clientWidth: 800 })).toEqual({ start: false, end: true });
    expect(hiddenSides({ scrollLeft: 200, scrollWidth: 1200, clientWidth: 800 })).toEqual({ start: true, end: true });
    expect(hiddenSides({ scrollLeft: 400, scrollWidth: 1200, clientWidth: 800 })).toEqual({ start: true, end: false });
  });

  it('marks the edge it scrolls towards, and follows the scrolling', () => {
    const { container } = render(<Table caption="People" columns={columns} rows={[{ name: 'Ada' }]} rowKey={(row) => row.name} />);
    const box = container.querySelector('.ui-table__scroll') as HTMLElement;
    // jsdom lays nothing out: give the box the sizes of a table twice as wide as its box.
    Object.defineProperties(box, { scrollWidth: { value: 1600, configurable: true }, clientWidth: { value: 800, configurable: true } });
    fireEvent.scroll(box);
    expect([box.hasAttribute('data-more-start'), box.hasAttribute('data-more-end')]).toEqual([false, true]);
    box.scrollLeft = 800;
    fireEvent.scroll(box);
    expect([box.hasAttribute('data-more-start'), box.hasAttribute('data-more-end')]).toEqual([true, false]);
  });
});
