/** A redirect target from the query: only a console path (`/...`, never `//host`); otherwise home. */
export function safeRedirect(value: unknown, fallback = '/'): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : fallback;
}
