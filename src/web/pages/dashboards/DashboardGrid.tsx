import { t } from '../../app/i18n/messages';
import { useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Button } from '../../ui';
import type { LayoutTile } from './dashboardsApi';
import { gridColumns, readingOrder, resizeTile, swapTiles } from './layout';

export type GridTile = { item: string; title: string; actions?: ReactNode; body: ReactNode };
export type DashboardGridProps = {
  tiles: GridTile[];
  layout: LayoutTile[];
  /** Editing shows drag handles and resize controls; every change is handed to `onLayoutChange` to persist. */
  editing: boolean;
  onLayoutChange: (layout: LayoutTile[]) => void;
};

const rowHeightPixels = 72;

/**
 * The 12-column grid of a dashboard. In edit mode a tile is dragged onto another to swap places, and resized by
 * its corner handle (pointer) or by its Wider/Narrower/Taller/Shorter buttons (keyboard).
 */
export function DashboardGrid({ tiles, layout, editing, onLayoutChange }: DashboardGridProps) {
  const gridRef = useRef<HTMLDivElement>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const [preview, setPreview] = useState<LayoutTile[] | null>(null);
  const shown = preview ?? layout;
  const byItem = new Map(tiles.map((tile) => [tile.item, tile]));

  const startResize = (event: ReactPointerEvent, tile: LayoutTile) => {
    const grid = gridRef.current;
    if (!grid) return;
    event.preventDefault();
    const columnWidth = grid.clientWidth / gridColumns;
    const [startX, startY] = [event.clientX, event.clientY];
    let latest = layout;
    const onMove = (move: PointerEvent) => {
      const w = Math.round(tile.w + (move.clientX - startX) / columnWidth);
      const h = Math.round(tile.h + (move.clientY - startY) / rowHeightPixels);
      latest = resizeTile(layout, tile.item, w, h);
      setPreview(latest);
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      setPreview(null);
      if (latest !== layout) onLayoutChange(latest);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };

  return (
    <div ref={gridRef} className={`dashboard-grid${editing ? ' dashboard-grid--editing' : ''}`} style={{ gridAutoRows: `${rowHeightPixels}px` }}>
      {readingOrder(shown).map((place) => {
        const tile = byItem.get(place.item);
        if (!tile) return null;
        return (
          <section
            key={place.item}
            className={`dashboard-tile${dragged === place.item ? ' dashboard-tile--dragged' : ''}`}
            aria-label={tile.title}
            style={{ gridColumn: `${place.x + 1} / span ${place.w}`, gridRow: `${place.y + 1} / span ${place.h}` }}
            draggable={editing}
            onDragStart={(event) => {
              event.dataTransfer.setData('text/plain', place.item);
              setDragged(place.item);
            }}
            onDragEnd={() => setDragged(null)}
            onDragOver={(event) => editing && event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              const from = event.dataTransfer.getData('text/plain') || dragged;
              setDragged(null);
              if (from && from !== place.item) onLayoutChange(swapTiles(layout, from, place.item));
            }}
          >
            <header className="dashboard-tile__header">
              <h2 className="dashboard-tile__title">{editing && <span className="dashboard-tile__grip" aria-hidden="true">⠿ </span>}{tile.title}</h2>
              {tile.actions && <div className="dashboard-tile__actions">{tile.actions}</div>}
            </header>
            <div className="dashboard-tile__body">{tile.body}</div>
            {editing && (
              <div className="dashboard-tile__sizer" role="group" aria-label={t('dashboards.sizeOfTitle', { title: tile.title })}>
                <Button size="small" variant="ghost" onClick={() => onLayoutChange(resizeTile(layout, place.item, place.w - 1, place.h))}>{t('dashboards.narrower')}</Button>
                <Button size="small" variant="ghost" onClick={() => onLayoutChange(resizeTile(layout, place.item, place.w + 1, place.h))}>{t('dashboards.wider')}</Button>
                <Button size="small" variant="ghost" onClick={() => onLayoutChange(resizeTile(layout, place.item, place.w, place.h - 1))}>{t('dashboards.shorter')}</Button>
                <Button size="small" variant="ghost" onClick={() => onLayoutChange(resizeTile(layout, place.item, place.w, place.h + 1))}>{t('dashboards.taller')}</Button>
                <span className="dashboard-tile__handle" aria-hidden="true" onPointerDown={(event) => startResize(event, place)} />
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
}
