import { useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

// Spec §9: throttle 200 ms, duration 2000 ms (the CSS transition of the loading phase), hide delay 500 ms,
// reset delay 400 ms, height 3 px (shell.css).
export const loadingBarTiming = { throttleMs: 200, durationMs: 2000, hideDelayMs: 500, resetDelayMs: 400 } as const;

export type LoadingPhase = 'idle' | 'loading' | 'finishing' | 'hiding';

/** The top loading bar: starts when a navigation outlasts the throttle, finishes on completion or error (error colour). */
export function LoadingBar() {
  const pending = useRouterState({ select: (state) => state.status === 'pending' });
  const failed = useRouterState({ select: (state) => state.matches.some((match) => match.status === 'error') });
  const [phase, setPhase] = useState<LoadingPhase>('idle');
  useEffect(() => {
    if (pending) {
      const timer = setTimeout(() => setPhase('loading'), loadingBarTiming.throttleMs);
      return () => clearTimeout(timer);
    }
    let resetTimer: ReturnType<typeof setTimeout> | undefined;
    setPhase((current) => (current === 'loading' ? 'finishing' : current));
    const hideTimer = setTimeout(() => {
      setPhase((current) => (current === 'finishing' ? 'hiding' : current));
      resetTimer = setTimeout(() => setPhase((current) => (current === 'hiding' ? 'idle' : current)), loadingBarTiming.resetDelayMs);
    }, loadingBarTiming.hideDelayMs);
    return () => {
      clearTimeout(hideTimer);
      if (resetTimer) clearTimeout(resetTimer);
    };
  }, [pending]);
  return <div className={`loading-bar loading-bar--${phase}${failed ? ' loading-bar--error' : ''}`} data-phase={phase} aria-hidden="true" />;
}
