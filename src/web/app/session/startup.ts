import { apiFetch } from '../http/client';
import { buildAdminCompanies, type AdminsResponse } from './adminCompanies';
import { mergeAdapters, permittedAdapters } from './adapters';
import { getSession, logout, updateSession, type Adapter, type Company, type CurrentUser, type Dashboard, type Enrichment, type LicenseConfiguration } from './session';

type Page<T> = { count?: number; results: T[] };

// Page sizes of spec §9.
const adapterPage = { page: 1, size: 1000 };
const enrichmentPage = { page: 1, size: 1000 };
const dashboardPage = { size: 500 };

/** "Logged only" failures of spec §8: visible to a developer, never to the user. */
const logOnly = (what: string) => (error: unknown) => {
  console.warn(`${what} could not be loaded`, error);
  return null;
};
const quietly = () => null;

/** The catalogue merged with the custom adapters, as the session holds them (also reloaded after a custom adapter is saved). */
export async function loadAdapters(user: CurrentUser, allowed: string[] | undefined): Promise<Adapter[]> {
  // The catalogue and the custom adapters are fetched in parallel and merged; both are silent on error. Custom
  // adapters need customs.view_data (spec §6): without it there are none to ask for.
  const [catalogue, customs] = await Promise.all([
    apiFetch<Page<Adapter>>('/adapters/adapters', { query: adapterPage, silent: true }).catch(quietly),
    user.permissions.includes('customs.view_data') ? apiFetch<Page<Adapter>>('/customs/adapters', { query: adapterPage, silent: true }).catch(quietly) : null,
  ]);
  return permittedAdapters(mergeAdapters(catalogue, customs), allowed);
}

async function loadEnrichments(user: CurrentUser): Promise<Enrichment[]> {
  // Enrichments need avm.view_vulnerabilityenrichment; without it the list is empty (spec §6).
  if (!user.permissions.includes('avm.view_vulnerabilityenrichment')) return [];
  const answer = await apiFetch<Page<Enrichment>>('/avm/enrichments', { query: enrichmentPage, silent: true }).catch(logOnly('enrichments'));
  return answer?.results ?? [];
}

async function loadEverything(): Promise<void> {
  let user: CurrentUser;
  try {
    user = await apiFetch<CurrentUser>('/api/me', { silent: true });
  } catch {
    logout(); // A failed user fetch logs out (spec §8); the guard then sends the visitor to login.
    return;
  }
  updateSession({ user });
  // An expired password locks every other endpoint (403 password_expired) until it is changed: load nothing else.
  if (user.password_expired) return;
  const token = getSession().token;
  const stillSignedIn = () => getSession().token === token;
  await Promise.all([
    loadAdapters(user, getSession().decoded?.adapters).then((adapters) => stillSignedIn() && updateSession({ adapters })),
    apiFetch<Company>('/api/company', { silent: true }).then(
      (company) => stillSignedIn() && updateSession({ company }),
      () => stillSignedIn() && logout(), // Errors are silent; a failed company fetch logs out.
    ),
    apiFetch<LicenseConfiguration>('/configurations/license', { silent: true }).then((license) => stillSignedIn() && updateSession({ license }), quietly),
    apiFetch<Record<string, unknown>>('/configurations/company', { silent: true }).then(
      (companyConfiguration) => stillSignedIn() && updateSession({ companyConfiguration }),
      quietly,
    ),
    apiFetch<Page<Dashboard>>('/dashboards/dashboards', { query: dashboardPage, silent: true }).then(
      (answer) => stillSignedIn() && updateSession({ dashboards: answer.results ?? [] }),
      logOnly('dashboards'),
    ),
    loadEnrichments(user).then((enrichments) => stillSignedIn() && updateSession({ enrichments })),
    apiFetch<AdminsResponse>('/api/admins', { silent: true }).then(
      (answer) => stillSignedIn() && updateSession({ adminCompanies: buildAdminCompanies(answer) }),
      logOnly('admin companies'),
    ),
  ]);
}

let running: Promise<void> | null = null;

/**
 * The start-up load after sign-in (spec §4): user, adapters, company, license and company configuration,
 * dashboards, enrichments and admin companies. Concurrent callers share one load.
 */
export function loadStartup(): Promise<void> {
  if (running) return running;
  updateSession({ fetchingUser: true });
  running = loadEverything().finally(() => {
    running = null;
    if (getSession().token) updateSession({ fetchingUser: false, started: true });
  });
  return running;
}
