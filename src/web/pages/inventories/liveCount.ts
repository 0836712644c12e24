import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { inventoryCountQuery } from './inventoryApi';
import { refusedQueryMessage } from './previousAnswer';
import { querySyntaxError } from './queryBuilderModel';

/** How long typing pauses before the bar counts the query's matches: one request per pause, not per key. */
const liveCountDebounceMs = 300;

/** The value once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * How many assets the typed query matches before it runs, as the asset profile form previews its query: asked of
 * the list's own search (so the count is the list's) once the text parses and typing pauses. `refusal` is the
 * server's reason for refusing it (an unknown field, a value of the wrong type), named as you type. The applied
 * query (`applied`) is not counted again: the list above already answers it, count included.
 */
export function useLiveCount(searchPath: string | undefined, text: string, applied: string): { count?: number; refusal: string | null; counting: boolean } {
  const typed = text.trim();
  const settled = useSettled(typed, liveCountDebounceMs);
  const counts = (candidate: string) => Boolean(searchPath && candidate && candidate !== applied.trim() && !querySyntaxError(candidate));
  // Text since changed is not the typed query: it is neither asked for nor shown until the new text settles.
  const current = counts(settled) && settled === typed;
  const answer = useQuery({ ...inventoryCountQuery(searchPath ?? '', settled), enabled: current });
  return {
    count: current && !answer.isPlaceholderData ? answer.data?.count : undefined,
    refusal: current ? refusedQueryMessage(answer.error) : null,
    counting: counts(typed) && (!current || answer.isFetching),
  };
}
