import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../app/http';

/** The last query the server answered, with its answer. */
export type AnsweredQuery<Data> = { query: string; data: Data };

/**
 * The server's reason for refusing a query (a 400 on its text), or null. The server puts it under `query`, already
 * carrying its position ("… (at character 8)"); any other 400 shape falls back to the error's whole text.
 */
export function refusedQueryMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  return error.fieldErrors.query?.join(' ') || error.message;
}

/**
 * Remembers the last answer the server gave to a query, so a refused query does not empty the table into a silent
 * "no match": the list can keep showing that answer, marked as the previous query's. Placeholder data (the answer
 * kept while a new query loads) is not an answer to the new query, so it is not remembered under its text.
 */
export function usePreviousAnswer<Data>(list: UseQueryResult<Data>, query: string): AnsweredQuery<Data> | null {
  const [answered, setAnswered] = useState<AnsweredQuery<Data> | null>(null);
  useEffect(() => {
    if (list.data !== undefined && !list.isPlaceholderData && !list.error) setAnswered({ query, data: list.data });
  }, [list.data, list.isPlaceholderData, list.error, query]);
  return answered;
}
