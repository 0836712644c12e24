import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The real registration module (and the real workbox-window under it) against the browser's service-worker API, which
// happy-dom lacks: `navigator.serviceWorker` is played by the small container below, the boundary the module talks to.

class TestWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  constructor(readonly scriptURL: string) {
    super();
  }
  /** The browser moving the worker on: its state changes and `statechange` fires. */
  moveTo(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class TestRegistration extends EventTarget {
  installing: TestWorker | null = null;
  waiting: TestWorker | null = null;
  active: TestWorker | null = null;
  async update(): Promise<void> {}
}

type TestContainer = EventTarget & { controller: TestWorker | null; register: ReturnType<typeof vi.fn> };

const workerUrl = () => new URL('./sw.js', window.location.href).href;

function installContainer(register: () => Promise<TestRegistration>, controller: TestWorker | null = null): TestContainer {
  const container = Object.assign(new EventTarget(), { controller, register: vi.fn(register) });
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  return container;
}

/** The module afresh (its flag and its once-only reload are per page load), with the page's reload recorded. */
async function freshModule() {
  vi.resetModules();
  const module = await import('../../../src/web/app/pwa/serviceWorker');
  const seen: string[] = [];
  for (const name of ['registered', 'installed', 'activated', 'offline-ready', 'registration-failed']) module.serviceWorkerEvents.addEventListener(name, () => seen.push(name));
  return { ...module, seen };
}

let reload: ReturnType<typeof vi.fn<() => void>>;
beforeEach(() => {
  reload = vi.fn<() => void>();
  vi.spyOn(window.location, 'reload').mockImplementation(reload);
});
afterEach(() => {
  vi.restoreAllMocks();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

describe('the service worker registration', () => {
  it('sets the flag, emits registration-failed (on window too) and logs when the browser refuses the registration', async () => {
    const refusal = new DOMException('The operation is insecure.', 'SecurityError');
    const container = installContainer(() => Promise.reject(refusal));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onWindow: unknown[] = [];
    const listener = (event: Event) => onWindow.push((event as CustomEvent).detail);
    window.addEventListener('cartograph:service-worker', listener);
    const { registerServiceWorker, serviceWorkerState, seen } = await freshModule();
    try {
      await registerServiceWorker();
    } finally {
      window.removeEventListener('cartograph:service-worker', listener);
    }
    expect(container.register).toHaveBeenCalledTimes(1);
    expect(serviceWorkerState).toMatchObject({ registrationFailed: true, registered: false, offlineReady: false });
    expect(seen).toEqual(['registration-failed']);
    expect(onWindow).toEqual([{ name: 'registration-failed', detail: refusal }]);
    expect(logged).toHaveBeenCalledWith('Service worker registration failed', refusal);
    expect(reload).not.toHaveBeenCalled();
  });

  it('announces offline readiness on the first install and does not reload when that first worker takes the page', async () => {
    const registration = new TestRegistration();
    const container = installContainer(async () => registration);
    const { registerServiceWorker, serviceWorkerState, seen } = await freshModule();
    await registerServiceWorker();
    const worker = new TestWorker(workerUrl());
    registration.installing = worker;
    registration.dispatchEvent(new Event('updatefound'));
    worker.moveTo('installed');
    worker.moveTo('activating');
    worker.moveTo('activated');
    container.controller = worker;
    container.dispatchEvent(new Event('controllerchange'));
    expect(seen).toEqual(['registered', 'installed', 'offline-ready', 'activated']);
    expect(serviceWorkerState).toMatchObject({ registered: true, offlineReady: true, registrationFailed: false });
    expect(reload).not.toHaveBeenCalled();
  });

  it('does not reload when the first worker, installed by an earlier load of the page, takes over a page nobody controlled', async () => {
    // The page was reloaded while the first worker was still installing: this load never sees it install
    // (no updatefound), only its taking over; workbox calls it external, yet the page already runs this build.
    const installing = new TestWorker(workerUrl());
    const container = installContainer(async () => Object.assign(new TestRegistration(), { installing }));
    const { registerServiceWorker, seen } = await freshModule();
    await registerServiceWorker();
    installing.moveTo('activated');
    container.controller = installing;
    container.dispatchEvent(new Event('controllerchange'));
    expect(seen).toEqual(['registered']);
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page once when a worker activated in another tab takes the page over (controllerchange)', async () => {
    // This page is controlled by the build it was loaded with; another tab, opened after a deploy, installed and
    // activated the new worker, which claims every page of the origin: here only the controller changes.
    const current = new TestWorker(workerUrl());
    current.state = 'activated';
    const container = installContainer(async () => Object.assign(new TestRegistration(), { active: current }), current);
    const { registerServiceWorker } = await freshModule();
    await registerServiceWorker();
    expect(reload).not.toHaveBeenCalled();
    for (const build of ['next', 'after next']) {
      container.controller = Object.assign(new TestWorker(workerUrl()), { state: 'activated', build });
      container.dispatchEvent(new Event('controllerchange'));
    }
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
