import { t } from '../../app/i18n/messages';
import { useId } from 'react';
import { pageCount, pageList, rangeText } from './pageList';
import './Pagination.css';

export type PaginationProps = {
  /** 1-based current page. */
  page: number;
  pageSize: number;
  /** Total number of rows (the `count` of a DRF-style page). */
  count: number;
  onPageChange: (page: number) => void;
  /** When given, a page-size select is shown with these choices. */
  pageSizes?: readonly number[];
  onPageSizeChange?: (size: number) => void;
  disabled?: boolean;
  className?: string;
};

/** Page navigation for server-paged lists: the shown range, previous/next and numbered page buttons. */
export function Pagination({ page, pageSize, count, onPageChange, pageSizes, onPageSizeChange, disabled = false, className }: PaginationProps) {
  const sizeId = `page-size-${useId()}`;
  const total = pageCount(count, pageSize);
  const go = (target: number) => {
    if (!disabled && target >= 1 && target <= total && target !== page) onPageChange(target);
  };
  return (
    <nav className={`ui-pagination${className ? ` ${className}` : ''}`} aria-label={t('ui.pagination')}>
      <span className="ui-pagination__range" aria-live="polite">{rangeText(page, pageSize, count)}</span>
      {pageSizes && onPageSizeChange ? (
        <span className="ui-pagination__size">
          <label htmlFor={sizeId}>{t('ui.rowsPerPage')}</label>
          <select id={sizeId} className="ui-pagination__select" value={pageSize} disabled={disabled} onChange={(event) => onPageSizeChange(Number(event.target.value))}>
            {pageSizes.map((size) => (
              <option key={size} value={size}>{size}</option>
            ))}
          </select>
        </span>
      ) : null}
      <ul className="ui-pagination__pages">
        <li>
          <button type="button" className="ui-pagination__button" aria-label={t('ui.previousPage')} disabled={disabled || page <= 1} onClick={() => go(page - 1)}>
            ‹
          </button>
        </li>
        {pageList(page, total).map((item, index) =>
          item === 'gap' ? (
            <li key={`gap-${index}`} className="ui-pagination__gap" aria-hidden="true">…</li>
          ) : (
            <li key={item}>
              <button
                type="button"
                className={`ui-pagination__button${item === page ? ' ui-pagination__button--current' : ''}`}
                aria-label={t('ui.pageItem', { item })}
                aria-current={item === page ? 'page' : undefined}
                disabled={disabled}
                onClick={() => go(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
        <li>
          <button type="button" className="ui-pagination__button" aria-label={t('ui.nextPage')} disabled={disabled || page >= total} onClick={() => go(page + 1)}>
            ›
          </button>
        </li>
      </ul>
    </nav>
  );
}
