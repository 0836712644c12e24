import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../../app/http';
import { Card, Spinner } from '../../ui';
import './livePreview.css';

/** `value`, once it has stopped changing for `delayMs`: a preview asks the server after a pause in typing, not per key. */
export function useSettled<T>(value: T, delayMs = 400): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

export type LivePreviewProps<Data, Key extends QueryKey> = {
  title: string;
  /** The call for the settled input; null when there is nothing to preview yet (then `idle` is shown). */
  query: UseQueryOptions<Data, Error, Data, Key> | null;
  idle: ReactNode;
  countingLabel: string;
  /** The counts, and a sample (links to assets) when the answer has one. */
  children: (data: Data) => ReactNode;
};

/**
 * What a query being typed matches on the latest snapshot, beside the form that holds it (security profiles and
 * policies, actions): a spinner while counting, the query's own error under it when it cannot be read.
 */
export function LivePreview<Data, Key extends QueryKey>({ title, query, idle, countingLabel, children }: LivePreviewProps<Data, Key>) {
  return (
    <Card title={title}>
      <div className="live-preview" aria-live="polite">
        {query === null ? <p className="live-preview__muted">{idle}</p> : <PreviewAnswer query={query} countingLabel={countingLabel}>{children}</PreviewAnswer>}
      </div>
    </Card>
  );
}

function PreviewAnswer<Data, Key extends QueryKey>({ query, countingLabel, children }: Pick<LivePreviewProps<Data, Key>, 'countingLabel' | 'children'> & { query: UseQueryOptions<Data, Error, Data, Key> }) {
  const preview = useQuery(query);
  if (preview.isFetching) return <Spinner label={countingLabel} />;
  if (preview.error instanceof ApiError) return <p className="live-preview__error" role="alert">{preview.error.fieldErrors.query?.join(' ') ?? preview.error.message}</p>;
  return preview.data ? <>{children(preview.data)}</> : null;
}
