import { useQuery } from '@tanstack/react-query';
import { t } from '../../../app/i18n/messages';
import { apiFetch } from '../../../app/http';

// A company's groups and users fit in one page of the list endpoint, so a widget offers them all without paging.
const everyRow = 1000;

/**
 * All rows of a company list endpoint (`/users/groups`, `/users/users`) in the given ordering, for a widget that
 * offers them as choices, with the line to show instead while they load, when they fail, or when there are none
 * (`noun` is the rows' name from the message file, e.g. t('renderers.users')).
 */
export function useCompanyRows<Row>(path: string, ordering: string, noun: string): { rows: Row[]; status?: string } {
  const query = { size: everyRow, ordering };
  const rows = useQuery({ queryKey: [path, query], queryFn: () => apiFetch<{ results: Row[] }>(path, { query }) });
  if (rows.isPending) return { rows: [], status: t('renderers.loadingNoun', { noun }) };
  if (rows.isError) return { rows: [], status: t('renderers.nounCouldNotLoad', { noun }) };
  return { rows: rows.data.results, status: rows.data.results.length ? undefined : t('renderers.noNounYet', { noun }) };
}
