import { updateSession } from '../../../src/web/app/session/session';
import { adminUser, freshSession, tokenWith } from '../app/helpers';

/** Gives the signed-in user exactly these permissions: pages show or hide their lists and actions by them. */
export const withPermissions = (permissions: string[]) => updateSession({ user: { ...adminUser, permissions } });

/** A fresh signed-in session whose user holds exactly `permissions`, as each page test starts from. */
export function signInWith(permissions: string[]): ReturnType<typeof freshSession> {
  const session = freshSession(tokenWith({}));
  withPermissions(permissions);
  return session;
}

/** The query parameters of a recorded call's (relative) URL, to assert on what a page asked the API for. */
export const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://console').searchParams);
