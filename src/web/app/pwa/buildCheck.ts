import { t } from '../i18n/messages';
import { notify } from '../notifications/notifications';
import { reloadForUpdate } from './serviceWorker';

// How often the console asks whether a new build was deployed (also on returning to the tab).
export const buildCheckIntervalMs = 60_000;

export type BuildManifest = { id: string; timestamp: number };
type UpdateHook = (latest: BuildManifest) => void;

/** The id this console was built with (`dev` under the dev server and tests). */
export const currentBuildId = (): string => (typeof __CARTOGRAPH_BUILD_ID__ === 'string' ? __CARTOGRAPH_BUILD_ID__ : 'dev');

/** The default update hook: a sticky notification offering to reload. */
export function offerReload(): void {
  notify('warning', t('update.text'), { title: t('update.title'), lifetime: 0, action: { label: t('update.reload'), onClick: () => void reloadForUpdate() } });
}

/**
 * One look at builds/latest.json (cache-busting timestamp, never cached): answers the new build when its id differs
 * from this one's. A failed fetch is a console error only (spec §8).
 */
export async function checkForNewBuild(ownId = currentBuildId(), now = Date.now()): Promise<BuildManifest | null> {
  try {
    const response = await fetch(`./builds/latest.json?t=${now}`, { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const latest = (await response.json()) as BuildManifest;
    return latest.id && latest.id !== ownId ? latest : null;
  } catch (error) {
    console.error('The build manifest could not be fetched', error);
    return null;
  }
}

/** Checks periodically and when the tab is shown again; the hook fires once per new build id. */
export function startBuildCheck(onUpdate: UpdateHook = offerReload): () => void {
  let announced = currentBuildId();
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    const latest = await checkForNewBuild(announced);
    running = false;
    if (!latest) return;
    announced = latest.id;
    onUpdate(latest);
  };
  const onVisible = () => document.visibilityState === 'visible' && void check();
  const timer = setInterval(() => void check(), buildCheckIntervalMs);
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('focus', onVisible);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('focus', onVisible);
  };
}
