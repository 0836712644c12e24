import { t } from '../i18n/messages';
import { goToLogin, currentFullPath } from '../navigation';
import { lifetimes, notify } from '../notifications/notifications';
import { getSession, logout } from '../session/session';
import { errorText, fieldErrorsOf, notificationText } from './errorText';
import { currentRoutePath, isFieldShown, setFieldErrors, type FieldErrors } from './fieldErrors';

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

/**
 * The error handling of spec §8 that follows a failed call. A 4xx notification leaves out the messages a form on the
 * page lists under their fields (`isShown`): it says once to fix them instead.
 */
function reportFailure(status: number, body: unknown, silent: boolean, isShown: (field: string) => boolean): void {
  if (status === 401) {
    const onLogin = currentRoutePath() === '/login';
    logout();
    if (!onLogin) goToLogin(currentFullPath());
    return;
  }
  if (status === 403 || silent) return;
  if (status === 500) notify('error', errorText(body), { title: t('error.internalServerError') });
  else if (status >= 400 && status < 500) notify('error', notificationText(body, isShown), { lifetime: status === 400 ? lifetimes.extremeLong : lifetimes.short });
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
  return failedCall(response.status, body, routePath, callPath, Boolean(options.silent));
}

/** Records and reports a failed call (spec §8), then throws its ApiError. */
function failedCall(status: number, body: unknown, routePath: string, callPath: string, silent: boolean): never {
  const carriesData = typeof body === 'object' && body !== null && typeof (body as { data?: unknown }).data === 'object';
  const fieldErrors = status === 400 || carriesData ? fieldErrorsOf(body) : {};
  setFieldErrors(routePath, callPath, fieldErrors);
  reportFailure(status, body, silent, (field) => field in fieldErrors && isFieldShown(routePath, callPath, field));
  throw new ApiError(status, body, fieldErrors);
}

/**
 * Uploads a file as `multipart/form-data` (field `file`) with the bearer token, reporting the share sent so far
 * (0–1) as it goes: XMLHttpRequest, because fetch tells nothing of an upload's progress. The file is streamed by the
 * browser whatever its size. Answers the parsed body; a failure is handled as apiFetch handles it.
 */
export function apiUpload<T>(path: string, file: File, options: { onProgress?: (share: number) => void; silent?: boolean } = {}): Promise<T> {
  const routePath = currentRoutePath();
  const callPath = path.split('?')[0] ?? path;
  const form = new FormData();
  form.append('file', file, file.name);
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('accept', 'application/json');
    const token = getSession().token;
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    request.onerror = () => reject(new Error(t('error.uploadInterrupted', { name: file.name })));
    request.onload = () => {
      const text = request.responseText;
      let body: unknown = text || null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON (a proxy's error page): kept as text.
      }
      if (request.status >= 200 && request.status < 300) {
        setFieldErrors(routePath, callPath, {});
        resolve(body as T);
        return;
      }
      try {
        failedCall(request.status, body, routePath, callPath, Boolean(options.silent));
      } catch (error) {
        reject(error);
      }
    };
    request.send(form);
  });
}
