import { afterEach, beforeEach } from 'vitest';

/**
 * happy-dom does no layout: while the calling test file runs, a virtual table's scrolling area reports the height a
 * browser would give it (its style height), so TanStack Virtual renders rows.
 */
export function giveVirtualTablesHeight(): void {
  const original = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight');
  beforeEach(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('ui-table__scroll--virtual') ? Number.parseInt(this.style.height, 10) : 0;
      },
    });
  });
  afterEach(() => {
    delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
    if (original) Object.defineProperty(Element.prototype, 'clientHeight', original);
  });
}
