import { t } from '../i18n/messages';
import { useEffect, useId, useState } from 'react';
import { closeOverlayList, filterOverlayItems, useOverlayList, type OverlayList } from './overlayList';

/** The one global overlay list: a search box over a list; hides on a click on an item or outside. */
export function OverlayListHost() {
  const list = useOverlayList();
  return list ? <OverlayListPanel key={list.title} list={list} /> : null;
}

function OverlayListPanel({ list }: { list: OverlayList }) {
  const [query, setQuery] = useState('');
  const titleId = useId();
  const shown = filterOverlayItems(list.items, list.searchBy, query);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && closeOverlayList();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const choose = (item: Record<string, unknown>) => {
    if (!list.clickable) return;
    list.onClick?.(item);
    closeOverlayList();
  };
  return (
    <div className="overlay-backdrop" onClick={closeOverlayList}>
      <section className="overlay-list" role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(event) => event.stopPropagation()}>
        <header className="overlay-list__header">
          <h2 id={titleId}>{list.title}</h2>
          <button type="button" className="shell-button" aria-label={t('common.close')} onClick={closeOverlayList}>
            ×
          </button>
        </header>
        <input className="overlay-list__search" type="search" placeholder={t('overlay.typeToSearch')} aria-label={t('overlay.search')} value={query} onChange={(event) => setQuery(event.target.value)} autoFocus />
        <ul className="overlay-list__items">
          {shown.length === 0 && <li className="overlay-list__empty">{t('overlay.noDataFound')}</li>}
          {shown.map((item, index) => (
            <li key={index}>
              {list.clickable ? (
                <button type="button" className="overlay-list__item" onClick={() => choose(item)}>
                  {list.render ? list.render(item) : String(item[list.searchBy[0] ?? ''] ?? '')}
                </button>
              ) : (
                <div className="overlay-list__item">{list.render ? list.render(item) : String(item[list.searchBy[0] ?? ''] ?? '')}</div>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
