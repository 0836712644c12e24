import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../app/http';

// A company's groups and users fit in one page of the list endpoint, so a widget offers them all without paging.
const everyRow = 1000;

/** What the widget shows while the rows load, when they fail, and when there are none (from the message file). */
export type CompanyRowsTexts = { loading: string; failed: string; none: string };

/**
 * All rows of a company list endpoint (`/users/groups`, `/users/users`) in the given ordering, for a widget that
 * offers them as choices, with the line to show instead while they load, when they fail, or when there are none.
 */
export function useCompanyRows<Row>(path: string, ordering: string, texts: CompanyRowsTexts): { rows: Row[]; status?: string } {
  const query = { size: everyRow, ordering };
  const rows = useQuery({ queryKey: [path, query], queryFn: () => apiFetch<{ results: Row[] }>(path, { query }) });
  if (rows.isPending) return { rows: [], status: texts.loading };
  if (rows.isError) return { rows: [], status: texts.failed };
  return { rows: rows.data.results, status: rows.data.results.length ? undefined : texts.none };
}
