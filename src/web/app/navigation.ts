// The session and the HTTP client must navigate without importing the router (the router imports them);
// the router registers itself here when it is created.
type Navigator = (to: string, search?: Record<string, string>) => void;
let navigator: Navigator = () => undefined;

export function registerNavigator(next: Navigator): void {
  navigator = next;
}

export function navigateTo(to: string, search?: Record<string, string>): void {
  navigator(to, search);
}

/** The current full console path (hash routing): path, query and hash after `#`. */
export function currentFullPath(): string {
  return window.location.hash.replace(/^#/, '') || '/';
}

/** Login with a redirect back to `redirect`; on /login already, an existing redirect is kept (spec §8). */
export function goToLogin(redirect = currentFullPath()): void {
  if (redirect === '/login' || redirect.startsWith('/login?')) return;
  navigateTo('/login', { redirect });
}
