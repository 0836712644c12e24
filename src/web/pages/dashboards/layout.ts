import type { LayoutTile } from './widgetCatalogue';

export const gridColumns = 12;
const defaultSize = { w: 6, h: 4 };

/**
 * The layout to draw for the items a dashboard holds: stored tiles of items that still exist, then every item
 * without a tile, placed in the first free spot of the 12-column grid.
 * Before: layout `[widget:1 at 0,0 6×4]`, items `widget:1, widget:2`; after: `widget:2` at 6,0 6×4.
 */
export function completeLayout(stored: LayoutTile[], items: string[]): LayoutTile[] {
  const present = new Set(items);
  const tiles = stored.filter((tile) => present.has(tile.item)).map((tile) => clampTile(tile));
  for (const item of items) {
    if (tiles.some((tile) => tile.item === item)) continue;
    tiles.push({ item, ...firstFreeSpot(tiles, defaultSize.w, defaultSize.h), ...defaultSize });
  }
  return tiles;
}

function clampTile(tile: LayoutTile): LayoutTile {
  const w = Math.min(Math.max(1, tile.w), gridColumns);
  return { ...tile, w, h: Math.max(1, tile.h), x: Math.min(Math.max(0, tile.x), gridColumns - w), y: Math.max(0, tile.y) };
}

const overlaps = (left: Omit<LayoutTile, 'item'>, right: Omit<LayoutTile, 'item'>) =>
  left.x < right.x + right.w && right.x < left.x + left.w && left.y < right.y + right.h && right.y < left.y + left.h;

/** The top-most, then left-most position where a w×h tile overlaps no other tile. */
export function firstFreeSpot(tiles: LayoutTile[], w: number, h: number): { x: number; y: number } {
  for (let y = 0; ; y += 1) {
    for (let x = 0; x + w <= gridColumns; x += 1) {
      if (!tiles.some((tile) => overlaps(tile, { x, y, w, h }))) return { x, y };
    }
  }
}

/** Swaps the places of two tiles (drag one onto another); each keeps its own size. */
export function swapTiles(layout: LayoutTile[], dragged: string, target: string): LayoutTile[] {
  const from = layout.find((tile) => tile.item === dragged);
  const to = layout.find((tile) => tile.item === target);
  if (!from || !to || from === to) return layout;
  return layout.map((tile) => {
    if (tile.item === dragged) return clampTile({ ...tile, x: to.x, y: to.y });
    if (tile.item === target) return clampTile({ ...tile, x: from.x, y: from.y });
    return tile;
  });
}

/** Resizes one tile, kept inside the grid (1 to 12 columns wide, at least one row high). */
export function resizeTile(layout: LayoutTile[], item: string, w: number, h: number): LayoutTile[] {
  return layout.map((tile) => (tile.item === item ? clampTile({ ...tile, w, h }) : tile));
}

/** Tiles in reading order (top to bottom, left to right), the order keyboard and screen-reader users meet them. */
export function readingOrder(layout: LayoutTile[]): LayoutTile[] {
  return [...layout].sort((left, right) => left.y - right.y || left.x - right.x);
}
