import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, fieldErrorsFor, useFieldErrors } from '../../../src/web/app/http';
import { getNotifications, dismissAll } from '../../../src/web/app/notifications/notifications';
import { getSession } from '../../../src/web/app/session/session';
import { freshSession, serveApi, tokenWith } from './helpers';

beforeEach(() => dismissAll());
afterEach(() => vi.unstubAllGlobals());

describe('apiFetch', () => {
  it('sends the stored token as a bearer token and the query as a query string', async () => {
    const token = tokenWith({});
    freshSession(token);
    const calls = serveApi({ 'GET /api/me': { body: { id: 1 } } });
    await expect(apiFetch('/api/me', { query: { page: 1, size: 1000, search: undefined } })).resolves.toEqual({ id: 1 });
    expect(calls[0]).toMatchObject({ url: '/api/me?page=1&size=1000', authorization: `Bearer ${token}` });
  });

  it.each([408, 409, 425, 429, 500, 502, 503, 504])('retries a GET once when the answer is %i', async (status) => {
    freshSession(tokenWith({}));
    const calls = serveApi({ 'GET /things': [{ status, body: { detail: 'busy' } }, { body: { ok: true } }] });
    await expect(apiFetch('/things')).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('retries a GET only once, then fails', async () => {
    freshSession(tokenWith({}));
    const calls = serveApi({ 'GET /things': { status: 503, body: { detail: 'down' } } });
    await expect(apiFetch('/things', { silent: true })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(2);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('never retries a %s', async (method) => {
    freshSession(tokenWith({}));
    const calls = serveApi({ [`${method} /things`]: [{ status: 503, body: { detail: 'down' } }, { body: {} }] });
    await expect(apiFetch('/things', { method, body: {}, silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  it('does not retry a GET on a status outside the list', async () => {
    freshSession(tokenWith({}));
    const calls = serveApi({ 'GET /things': [{ status: 404, body: { detail: 'Not found.' } }, { body: {} }] });
    await expect(apiFetch('/things', { silent: true })).rejects.toMatchObject({ status: 404 });
    expect(calls).toHaveLength(1);
  });

  it('on 401 logs out and goes to login with the current path as redirect', async () => {
    const { navigations } = freshSession(tokenWith({}));
    window.location.hash = '#/settings/user?page=2';
    serveApi({ 'GET /users/users': { status: 401, body: { detail: 'Expired' } } });
    await expect(apiFetch('/users/users')).rejects.toMatchObject({ status: 401 });
    expect(getSession().token).toBeNull();
    expect(localStorage.getItem('cartograph.token')).toBeNull();
    expect(navigations).toEqual([{ to: '/login', search: { redirect: '/settings/user?page=2' } }]);
    expect(getNotifications()).toEqual([]);
  });

  it('on 401 while on /login keeps the existing redirect (no new navigation)', async () => {
    const { navigations } = freshSession(tokenWith({}));
    window.location.hash = '#/login?redirect=%2Fdevices';
    serveApi({ 'GET /api/me': { status: 401, body: { detail: 'Expired' } } });
    await expect(apiFetch('/api/me')).rejects.toMatchObject({ status: 401 });
    expect(getSession().token).toBeNull();
    expect(navigations).toEqual([]);
  });

  it('on 403 does nothing further: no notification, no logout', async () => {
    const { navigations } = freshSession(tokenWith({}));
    serveApi({ 'GET /users/users': { status: 403, body: { detail: 'You do not have permission.' } } });
    await expect(apiFetch('/users/users')).rejects.toMatchObject({ status: 403, message: 'You do not have permission.' });
    expect(getNotifications()).toEqual([]);
    expect(getSession().token).not.toBeNull();
    expect(navigations).toEqual([]);
  });

  it('on 500 notifies "Internal server error" unless the call is silent', async () => {
    freshSession(tokenWith({}));
    serveApi({ 'POST /things': { status: 500, body: { detail: 'Internal server error.' } } });
    await expect(apiFetch('/things', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 500 });
    expect(getNotifications()).toMatchObject([{ kind: 'error', title: 'Internal server error', text: 'Internal server error.' }]);
    dismissAll();
    await expect(apiFetch('/things', { method: 'POST', body: {}, silent: true })).rejects.toMatchObject({ status: 500 });
    expect(getNotifications()).toEqual([]);
  });

  it('notifies a 400 for the extreme long lifetime and other 4xx for the short one', async () => {
    freshSession(tokenWith({}));
    serveApi({ 'POST /bad': { status: 400, body: { detail: 'Bad input' } }, 'POST /gone': { status: 404, body: { detail: 'Not found.' } } });
    await expect(apiFetch('/bad', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError);
    await expect(apiFetch('/gone', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(getNotifications()).toMatchObject([
      { kind: 'error', title: 'An error occurred', text: 'Bad input', lifetime: 10_000 },
      { kind: 'error', title: 'An error occurred', text: 'Not found.', lifetime: 2000 },
    ]);
  });

  it('stores field errors of a 400 under the route path, the call path and the field, and clears them on success', async () => {
    freshSession(tokenWith({}));
    window.location.hash = '#/settings/user/create?tab=1';
    serveApi({ 'POST /users/users': [{ status: 400, body: { username: ['This field is required.'], email: ['Enter a valid email.'] } }, { status: 201, body: { id: 3 } }] });
    const failure = await apiFetch('/users/users', { method: 'POST', body: {}, silent: true }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ fieldErrors: { username: ['This field is required.'], email: ['Enter a valid email.'] } });
    expect(fieldErrorsFor('/settings/user/create', '/users/users', 'username')).toEqual(['This field is required.']);
    expect(fieldErrorsFor('/settings/group/create', '/users/users', 'username')).toEqual([]);
    await apiFetch('/users/users', { method: 'POST', body: {}, silent: true });
    expect(fieldErrorsFor('/settings/user/create', '/users/users', 'username')).toEqual([]);
  });

  it('stores the data object of an error as field errors', async () => {
    freshSession(tokenWith({}));
    window.location.hash = '#/settings/smtp-configuration';
    serveApi({ 'PUT /configurations/smtp': { status: 422, body: { data: { host: ['Unreachable host.'] } } } });
    await expect(apiFetch('/configurations/smtp', { method: 'PUT', body: {}, silent: true })).rejects.toMatchObject({ message: 'Host: Unreachable host.' });
    expect(fieldErrorsFor('/settings/smtp-configuration', '/configurations/smtp', 'host')).toEqual(['Unreachable host.']);
  });

  it('leaves out of a 400 notification the messages a mounted form lists under its fields, until the form goes', async () => {
    freshSession(tokenWith({}));
    window.location.hash = '#/settings/user/create';
    serveApi({ 'POST /users/users': { status: 400, body: { username: ['Taken.'], 'profile.locale': ['Unknown locale.'] } } });
    const form = renderHook(() => useFieldErrors('/users/users', ['username', 'email']));
    await expect(apiFetch('/users/users', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(getNotifications()).toMatchObject([{ kind: 'error', text: 'Fix the highlighted fields.\nLocale: Unknown locale.', lifetime: 10_000 }]);
    expect(form.result.current).toEqual({ username: ['Taken.'], 'profile.locale': ['Unknown locale.'] });

    dismissAll();
    form.unmount();
    await expect(apiFetch('/users/users', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(getNotifications()).toMatchObject([{ kind: 'error', text: 'Username: Taken.\nLocale: Unknown locale.' }]);
  });
});
