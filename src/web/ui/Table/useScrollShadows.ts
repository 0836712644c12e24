import { useEffect, type RefObject } from 'react';

/** Which sides of a horizontally scrolling box hide columns: the box scrolls that way. */
export function hiddenSides(box: { scrollLeft: number; scrollWidth: number; clientWidth: number }): { start: boolean; end: boolean } {
  // A pixel of slack: zoomed pages report fractional widths.
  const overflow = box.scrollWidth - box.clientWidth;
  return { start: overflow > 1 && box.scrollLeft > 1, end: overflow > 1 && box.scrollLeft < overflow - 1 };
}

/**
 * Marks a table's scrolling box with `data-more-start` / `data-more-end` while columns lie hidden on that side, so
 * a shadow at that edge (Table.css) says the table scrolls. Kept current on scroll and whenever the box or the
 * table changes size (columns added, the window resized).
 */
export function useScrollShadows(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const update = () => {
      const sides = hiddenSides(box);
      box.toggleAttribute('data-more-start', sides.start);
      box.toggleAttribute('data-more-end', sides.end);
    };
    update();
    box.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(box);
    if (box.firstElementChild) observer?.observe(box.firstElementChild);
    return () => {
      box.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, [ref]);
}
