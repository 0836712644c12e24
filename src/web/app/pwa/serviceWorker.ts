import { Workbox } from 'workbox-window';

/** The service worker's life as the console reports it (spec §4, §8). */
export type ServiceWorkerEventName = 'registered' | 'installed' | 'activated' | 'offline-ready' | 'registration-failed';

/** Where the events are announced: listeners (and tests) use `serviceWorkerEvents.addEventListener(name, ...)`. */
export const serviceWorkerEvents = new EventTarget();
/** The state so far: the flag of a failed registration (the console runs on without offline support), and readiness. */
export const serviceWorkerState = { registered: false, offlineReady: false, registrationFailed: false };

/** Announced on serviceWorkerEvents, and on window as `cartograph:service-worker` for code outside the bundle. */
function emit(name: ServiceWorkerEventName, detail: unknown = null): void {
  serviceWorkerEvents.dispatchEvent(new CustomEvent(name, { detail }));
  window.dispatchEvent(new CustomEvent('cartograph:service-worker', { detail: { name, detail } }));
}

let reloading = false;
/** One full reload, however many update signals arrive (spec §4: an update or an external activation forces it). */
function reloadOnce(): void {
  if (reloading) return;
  reloading = true;
  window.location.reload();
}

/**
 * Registers the service worker that precaches the console. The first install announces offline readiness; a new
 * version activating here or in another tab, or taking the page over, reloads the page once. A failed registration sets the flag, emits
 * `registration-failed` and is logged; the console works on without it.
 */
export async function registerServiceWorker(url = './sw.js'): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const workbox = new Workbox(url, { scope: './' });
  workbox.addEventListener('installed', (event) => {
    emit('installed', { isUpdate: Boolean(event.isUpdate) });
    if (!event.isUpdate && !event.isExternal) {
      serviceWorkerState.offlineReady = true;
      emit('offline-ready');
    }
  });
  workbox.addEventListener('activated', (event) => {
    emit('activated', { isUpdate: Boolean(event.isUpdate), isExternal: Boolean(event.isExternal) });
    if (event.isUpdate || event.isExternal) reloadOnce();
  });
  // The page's controller changed (controllerchange) while a worker already controlled it when it loaded: a new
  // worker, activated in another tab (this page may never have seen it install) or updating this one, took over a
  // page that runs the files of the previous build. A page nobody controlled when it loaded (a first visit, or a
  // reload while the first worker was still installing) is only being taken over by that first worker: workbox may
  // call that worker external when this page did not see it install, so only `isUpdate` counts here.
  workbox.addEventListener('controlling', (event) => {
    if (event.isUpdate) reloadOnce();
  });
  try {
    await workbox.register();
    serviceWorkerState.registered = true;
    emit('registered');
  } catch (error) {
    serviceWorkerState.registrationFailed = true;
    emit('registration-failed', error);
    console.error('Service worker registration failed', error);
  }
}

/**
 * The reload a user asks for after a new build was announced: the service worker checks for its new version first,
 * whose activation then reloads the page (once); without a new worker the page reloads directly.
 */
export async function reloadForUpdate(): Promise<void> {
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  await registration?.update().catch(() => undefined);
  if (registration?.installing || registration?.waiting) return;
  reloadOnce();
}
