// Software names as sources report them, folded so the same product from several sources is one software entry.
// Windows' installed-programs list writes "Google Chrome" by "Google LLC", Intune "Google Chrome" by "Google Inc.",
// CrowdStrike "Chrome" by "Google"; installers add architectures, locales, editions and the version to the name
// ("Mozilla Firefox (x64 en-US)", "7-Zip 23.01 (x64)", "Microsoft 365 Apps for enterprise - en-us").

// Company-form words a vendor's name ends with; they never tell two vendors apart.
const companyForms = new Set([
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'llc', 'ltd', 'limited', 'gmbh', 'ag', 'sa', 'sas', 'srl', 'bv', 'nv', 'plc',
  'pty', 'oy', 'ab', 'as', 'kg', 'spa', 'kk', 'the', 'foundation', 'software', 'systems', 'technologies', 'technology', 'project', 'team', 'org',
]);

/** Vendors whose names differ beyond company forms, by their folded name: the display name they fold into. */
const vendorAliases: Record<string, string> = {
  microsoft: 'Microsoft', msft: 'Microsoft', 'microsoft windows': 'Microsoft',
  google: 'Google', 'google chrome': 'Google', alphabet: 'Google',
  mozilla: 'Mozilla', 'mozilla firefox': 'Mozilla',
  adobe: 'Adobe', 'adobe acrobat': 'Adobe',
  apple: 'Apple', oracle: 'Oracle', 'sun microsystems': 'Oracle',
  vmware: 'VMware', broadcom: 'Broadcom', 'vmware by broadcom': 'VMware',
  cisco: 'Cisco', 'cisco webex': 'Cisco', zoom: 'Zoom', 'zoom video communications': 'Zoom',
  'igor pavlov': '7-Zip', '7zip': '7-Zip', '7 zip': '7-Zip',
  python: 'Python', 'python software': 'Python', apache: 'Apache', 'apache software': 'Apache',
  'red hat': 'Red Hat', redhat: 'Red Hat', canonical: 'Canonical', debian: 'Debian', 'debian project': 'Debian',
  'notepad++': 'Notepad++', 'notepad team': 'Notepad++', 'don ho': 'Notepad++',
  'videolan': 'VideoLAN', 'slack technologies': 'Slack', slack: 'Slack', 'citrix': 'Citrix', 'crowdstrike': 'CrowdStrike',
};

// Words of a product name that say which build of it is installed, not which product it is.
const architectureWords = new Set(['x64', 'x86', 'x8664', 'amd64', 'arm64', 'aarch64', 'i386', 'i686', 'win64', 'win32', '64bit', '32bit', '64', '32', 'bit']);
const editionWords = new Set(['version', 'stable', 'enterprise', 'professional', 'standard', 'community', 'home', 'business', 'ultimate', 'premium', 'edition', 'for', 'apps']);
const locale = /^[a-z]{2}-[a-z]{2,4}$/;
const knownLocales = new Set(['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'ja', 'zh', 'ko', 'ru', 'pl', 'sv', 'tr', 'cs', 'da', 'fi', 'nb', 'hu']);

/** Lower-case words of a name, punctuation dropped (kept inside words such as `c++` and `7-zip`). */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[®™©]/g, '')
    .replace(/\b(x86)[-_](64)\b/g, '$1$2')
    .replace(/\b(64|32)[- ]bit\b/g, '$1bit')
    .split(/[\s,;:()[\]{}"/\\|]+|(?<=\w)\.(?=\s|$)|\s-\s/)
    .map((word) => word.replace(/^[.\-_']+|[.\-_']+$/g, ''))
    .filter(Boolean);
}

/**
 * A vendor's folding key and display name: company forms dropped, aliases resolved.
 * Before: `"Microsoft Corporation"`; after: `{key: "microsoft", name: "Microsoft"}`.
 */
export function normalizeVendor(raw: unknown): { key: string; name: string } | null {
  if (typeof raw !== 'string' || !raw.trim()) return null;
  // E-mail addresses some installers put in the publisher field ("Don HO don.h@free.fr") are no part of the name.
  const kept = words(raw).filter((word) => !word.includes('@') && !companyForms.has(word.replace(/\./g, '')));
  const key = (kept.length ? kept : words(raw)).join(' ');
  if (!key) return null;
  const alias = vendorAliases[key] ?? vendorAliases[key.split(' ')[0]];
  if (alias) return { key: alias.toLowerCase(), name: alias };
  // Unknown vendors show as reported, without the company form: "Acme Widgets, Inc." → "Acme Widgets".
  const shown = raw.trim().replace(/[,.]?\s+(inc|incorporated|corp|corporation|co|company|llc|ltd|limited|gmbh|ag|s\.?a|plc)\.?$/i, '').trim();
  return { key, name: shown || raw.trim() };
}

/** A word that is a version, a build or a date-less number run: `23.01`, `v2.4.1`, `120.0.6099.130`. */
const versionWord = /^v?\d+(\.\d+)+[a-z]?$|^\d+\.x$/;

/** The part of a product name that identifies the product: "Mozilla Firefox (x64 en-US)" → "firefox" (vendor mozilla). */
export function productKey(name: string, vendorKey: string | null): string {
  const vendorWords = vendorKey ? vendorKey.split(' ') : [];
  const isArchitecture = (word: string | undefined) => word !== undefined && architectureWords.has(word.replace(/[-_]/g, ''));
  const all = words(name);
  // A locale: `en-us` anywhere, a bare `de` only right after an architecture ("(x86 de)").
  const isLocale = (word: string, index: number) => (locale.test(word) || isArchitecture(all[index - 1])) && knownLocales.has(word.split('-')[0]);
  let kept = all.filter((word, index) => !isArchitecture(word) && !versionWord.test(word) && !isLocale(word, index));
  // The vendor's own name at the start says nothing more than the vendor field ("Google Chrome" by Google).
  if (vendorWords.length && vendorWords.every((word, index) => kept[index] === word) && kept.length > vendorWords.length) kept = kept.slice(vendorWords.length);
  // Package names join words with dashes: "google-chrome-stable" by Google is "chrome stable".
  const packagePrefix = `${vendorWords.join('-')}-`;
  if (vendorWords.length && kept.length === 1 && kept[0].startsWith(packagePrefix) && kept[0].length > packagePrefix.length) kept = kept[0].slice(packagePrefix.length).split('-');
  const withoutEditions = kept.filter((word) => !editionWords.has(word));
  return (withoutEditions.length ? withoutEditions : kept).join(' ');
}

/** The vendor a product name starts with when the record names none ("Microsoft Edge" → Microsoft). */
function vendorFromName(name: string): { key: string; name: string } | null {
  const [first, second] = words(name);
  const alias = (second && vendorAliases[`${first} ${second}`]) || (first && vendorAliases[first]);
  return alias ? { key: alias.toLowerCase(), name: alias } : null;
}

/** The display form of a reported product name: architecture, locale and version suffixes taken off. */
export function displayName(name: string): string {
  const cleaned = name
    .replace(/\s*\((x64|x86|64-bit|32-bit|arm64)([ ,]+[a-z]{2}(-[a-z]{2,4})?)?\)\s*/gi, ' ')
    .replace(/\s+-\s+[a-z]{2}(-[a-z]{2,4})?\s*$/i, '')
    .replace(/\s+v?\d+(\.\d+){1,}[a-z]?(?=\s|$)/gi, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return cleaned || name.trim();
}

/** One installation's identity in the software inventory. */
export type SoftwareIdentity = { key: string; vendorKey: string; productKey: string; vendor: string | null; name: string };

/**
 * The identity a reported name and vendor fold into: `vendor|product`.
 * Before: `("Google Chrome (x64)", "Google LLC")` and `("Chrome", "Google")`; after: both `google|chrome`.
 */
export function softwareIdentity(name: unknown, vendor: unknown): SoftwareIdentity | null {
  if (typeof name !== 'string' || !name.trim()) return null;
  const normalizedVendor = normalizeVendor(vendor) ?? vendorFromName(name);
  const vendorKey = normalizedVendor?.key ?? '';
  const product = productKey(name, vendorKey || null);
  if (!product) return null;
  return { key: `${vendorKey}|${product}`, vendorKey, productKey: product, vendor: normalizedVendor?.name ?? null, name: displayName(name) };
}

/**
 * Folds identities without a vendor into the one vendor's entry with the same product, when exactly one vendor has
 * it ("openssl" with no publisher joins "OpenSSL" by the OpenSSL Project); answers key → folded key.
 */
export function foldVendorless(keys: Iterable<string>): Map<string, string> {
  const vendorsByProduct = new Map<string, Set<string>>();
  const all = [...new Set(keys)];
  for (const key of all) {
    const [vendor, product] = key.split('|');
    if (vendor) vendorsByProduct.set(product, (vendorsByProduct.get(product) ?? new Set()).add(key));
  }
  return new Map(all.map((key) => {
    const [vendor, product] = key.split('|');
    const candidates = vendor ? null : vendorsByProduct.get(product);
    return [key, candidates?.size === 1 ? [...candidates][0] : key];
  }));
}
