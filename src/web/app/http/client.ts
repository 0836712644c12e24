import { goToLogin, currentFullPath } from '../navigation';
import { lifetimes, notify } from '../notifications/notifications';
import { getSession, logout } from '../session/session';
import { errorText, fieldErrorsOf } from './errorText';
import { currentRoutePath, setFieldErrors, type FieldErrors } from './fieldErrors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null;
/**
 * `silent` turns the error notifications off for this call (the caller shows the failure itself); `responseType`
 * `blob` answers a file (an export) instead of parsed JSON.
 */
export type RequestOptions = { method?: HttpMethod; body?: unknown; query?: Record<string, QueryValue>; silent?: boolean; responseType?: 'json' | 'blob' };

/** A failed call: the status, the answer body and its field-level messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly fieldErrors: FieldErrors,
  ) {
    super(errorText(body));
    this.name = 'ApiError';
  }
}

// Spec §7: GET is retried once on these statuses; POST, PUT, PATCH and DELETE never are.
export const retriedStatuses: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

function urlFor(path: string, query: RequestOptions['query']): string {
  const pairs = Object.entries(query ?? {}).filter(([, value]) => value !== undefined && value !== null);
  const search = new URLSearchParams(pairs.map(([key, value]) => [key, String(value)]));
  return pairs.length ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text; // A body that is not JSON (a proxy's error page) is shown as text.
  }
}

/** The error handling of spec §8 that follows a failed call. */
function reportFailure(status: number, body: unknown, silent: boolean): void {
  if (status === 401) {
    const onLogin = currentRoutePath() === '/login';
    logout();
    if (!onLogin) goToLogin(currentFullPath());
    return;
  }
  if (status === 403 || silent) return;
  if (status === 500) notify('error', errorText(body), { title: 'Internal server error' });
  else if (status >= 400 && status < 500) notify('error', errorText(body), { lifetime: status === 400 ? lifetimes.extremeLong : lifetimes.short });
}

/**
 * Calls the API on the page's own host with the bearer token, retries a GET once on a transient status, answers the
 * parsed body and throws an ApiError on failure (after the notification, logout or field errors spec §8 asks for).
 */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const routePath = currentRoutePath();
  const callPath = path.split('?')[0] ?? path;
  const send = () => {
    const token = getSession().token;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(urlFor(path, options.query), { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  };
  let response = await send();
  if (method === 'GET' && retriedStatuses.has(response.status)) response = await send();
  if (response.ok && options.responseType === 'blob') return (await response.blob()) as T;
  const body = await parseBody(response);
  if (response.ok) {
    if (method !== 'GET') setFieldErrors(routePath, callPath, {});
    return body as T;
  }
  const carriesData = typeof body === 'object' && body !== null && typeof (body as { data?: unknown }).data === 'object';
  const fieldErrors = response.status === 400 || carriesData ? fieldErrorsOf(body) : {};
  setFieldErrors(routePath, callPath, fieldErrors);
  reportFailure(response.status, body, Boolean(options.silent));
  throw new ApiError(response.status, body, fieldErrors);
}
