import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlapd, type SlapdServer } from '../support/slapd';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';
import { issueCertificate } from '../support/testCertificates';
import { api, defaultAdminPassword, openSignedInConsole, signInThroughForm, type SignedInConsole } from './harness';

// A small directory, like the LDAP sign-in tests' (tests/server/ldapSignIn.test.ts): a service account, one person
// and the group that maps her to Cartograph's Analysts. It answers LDAPS with a certificate of a test authority,
// which the newcomer pastes into the form as the directory's CA.
const authority = issueCertificate({ commonName: 'Directory Test CA', isCa: true }, null);
const directoryCertificate = issueCertificate({ commonName: 'localhost', altNames: ['DNS:localhost', 'IP:127.0.0.1'] }, authority);
const suffix = 'dc=people,dc=example';
const serviceDn = `cn=svc-cartograph,ou=Services,${suffix}`;
const servicePassword = 'reader-secret-e2e';
const analystsDn = `cn=Analysts,ou=Groups,${suffix}`;
const aliceDn = `uid=alice,ou=People,${suffix}`;
const seed = [
  `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: people\no: People`,
  ...['Services', 'People', 'Groups'].map((ou) => `dn: ou=${ou},${suffix}\nobjectClass: organizationalUnit\nou: ${ou}`),
  `dn: ${serviceDn}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: svc-cartograph\nuserPassword: ${servicePassword}`,
  `dn: ${aliceDn}\nobjectClass: inetOrgPerson\nuid: alice\ncn: Alice Liddell\ngivenName: Alice\nsn: Liddell\nmail: alice@people.example\nuserPassword: alice-directory-pass`,
  `dn: ${analystsDn}\nobjectClass: groupOfNames\ncn: Analysts\nmember: ${aliceDn}`,
].join('\n\n') + '\n';

let slapd: SlapdServer;
let mail: TestSmtpServer;
let session: SignedInConsole;
let page: Page;

/** Opens a console path once the shell shows who is signed in. */
async function open(path: string, who = 'Cartograph Administrator'): Promise<void> {
  await page.goto(`${session.server.baseUrl}/#${path}`);
  await page.locator('.top-bar__user', { hasText: who }).waitFor();
}

async function signOut(who: string): Promise<void> {
  await page.locator('.top-bar__user', { hasText: who }).waitFor();
  const signOutButton = page.getByRole('button', { name: 'Sign out' });
  const inViewport = () => signOutButton.evaluate((button) => {
    const box = button.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  }, undefined, { timeout: 1_000 });
  // Until the popover is placed it sits off screen; clicking it there would scroll the page, and a scroll closes it.
  // A popover that closed anyway while it settled is opened again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (!(await signOutButton.isVisible())) await page.getByRole('button', { name: 'Account menu' }).click();
      await expect.poll(inViewport, { timeout: 5_000 }).toBe(true);
      await signOutButton.click({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  await page.waitForURL(/#\/login/);
}

beforeAll(async () => {
  slapd = await startSlapd({ suffix, ldif: seed, tls: directoryCertificate });
  mail = await startSmtpServer();
  session = await openSignedInConsole();
  page = session.page;
});

afterAll(async () => {
  await session?.browser.close();
  await session?.server.stop();
  await mail?.close();
  await slapd?.stop();
});

describe("a newcomer's sign-in directory, mail and activity log in a real browser", () => {
  it('configures the LDAP directory in the console and tests it', async () => {
    const groups = await api<{ results: { id: number; name: string }[] }>(session.server.baseUrl, '/users/groups?size=100', { token: session.adminToken });
    const analysts = groups.body.results.find((group) => group.name === 'Analysts')!;
    await open('/settings/ldap-configuration/create');
    await page.getByLabel(/^Name/).fill('People directory');
    await page.getByLabel(/^Directory URL/).fill(`ldaps://127.0.0.1:${slapd.securePort}`);
    await page.getByLabel(/^CA certificate/).fill(authority.cert);
    await page.getByLabel(/^Bind DN/).fill(serviceDn);
    await page.getByLabel(/^Bind password/).fill(servicePassword);
    await page.getByLabel(/^User search base/).fill(`ou=People,${suffix}`);
    await page.getByLabel(/^User filter/).fill('(&(objectClass=inetOrgPerson)(uid={username}))');
    await page.getByLabel(/^Username attribute/).fill('uid');
    // This slapd has no memberof overlay: the person's groups are found by the search below.
    await page.getByLabel(/^Group search base/).fill(`ou=Groups,${suffix}`);
    await page.getByLabel(/^Group filter/).fill('(member={dn})');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel(/^Directory group DN/).fill(analystsDn);
    await page.getByLabel(/^Cartograph group/).fill(String(analysts.id));
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/settings\/ldap-configuration$/);

    await page.getByRole('link', { name: 'People directory' }).click();
    await page.waitForURL(/#\/settings\/ldap-configuration\/\d+\/edit$/);
    await page.getByLabel('Sample username').fill('alice');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    const outcome = page.getByRole('region', { name: 'Test the directory' }).getByRole('status');
    await outcome.waitFor();
    expect(await outcome.textContent()).toContain(`Found alice (${aliceDn}), 1 directory groups, 1 mapped to Cartograph groups.`);
  });

  it('signs out, and signs in as the directory user through the login page', async () => {
    await signOut('Cartograph Administrator');
    await page.getByLabel('Sign in with LDAP').check();
    await signInThroughForm(page, 'alice', 'alice-directory-pass');
    await page.waitForURL((url) => !url.hash.startsWith('#/login'));
    await page.locator('.top-bar__user', { hasText: 'Alice Liddell' }).waitFor();
    const users = await api<{ results: { username: string; is_ldap: boolean; groups: { name: string }[] }[] }>(session.server.baseUrl, '/users/users?search=alice', { token: session.adminToken });
    expect(users.body.results).toEqual([expect.objectContaining({ username: 'alice', is_ldap: true, groups: [expect.objectContaining({ name: 'Analysts' })] })]);
    await signOut('Alice Liddell');
    await signInThroughForm(page, 'admin', defaultAdminPassword);
    await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  });

  it('saves the SMTP settings and sends a test e-mail that arrives', async () => {
    await open('/settings/smtp-configuration');
    const enabled = page.getByLabel(/^Send email/);
    await enabled.waitFor();
    await enabled.check();
    await page.getByLabel(/^SMTP server/).fill('127.0.0.1');
    await page.getByLabel(/^Port/).fill(String(mail.port));
    await page.getByLabel(/^Security/).selectOption('none');
    await page.getByLabel(/^Sender/).fill('cartograph@example.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('SMTP settings saved.').first().waitFor();
    await page.getByLabel('Recipient').fill('newcomer@example.test');
    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    const outcome = page.getByRole('region', { name: 'Send a test e-mail' }).getByRole('status');
    await outcome.waitFor();
    expect(await outcome.textContent()).toBe('The test e-mail to newcomer@example.test was accepted by the server.');
    expect(mail.messages.map((message) => message.to)).toEqual([['newcomer@example.test']]);
    expect(mail.messages[0].raw).toMatch(/^Subject: Cartograph test e-mail/m);
  });

  it('reads the activity log: filters by user and by action, and the directory change before and after', async () => {
    await open('/activities/user');
    const table = page.getByRole('table', { name: 'User activities' });
    // The filter is typed once the page has answered its first list: typed earlier, a page still mounting can drop it.
    await table.locator('tbody tr').first().waitFor();
    await page.getByLabel(/^User/).fill('alice');
    await expect.poll(() => page.getByLabel(/^User/).inputValue()).toBe('alice');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The filtered page replaces the unfiltered one once it is answered: only alice's sign-in is left.
    const users = () => table.locator('tbody tr td:nth-child(2)').allTextContents();
    await expect.poll(users).toEqual(['alice']);
    // Actions read as sentences; the recorded name stays in the link's title.
    expect(await table.getByRole('link', { name: 'Signed in through LDAP' }).getAttribute('title')).toBe('token.obtain_ldap');

    await page.getByLabel(/^User/).fill('');
    await page.getByLabel(/^Action/).selectOption('ldap_configurations.create');
    await page.getByRole('button', { name: 'Filter' }).click();
    const created = table.getByRole('link', { name: 'Added an LDAP directory' });
    await expect.poll(() => created.count()).toBe(1);
    await created.click();
    await page.waitForURL(/#\/activities\/user\/\d+$/);
    const change = page.getByRole('table', { name: 'Each field before and after the change' });
    await change.waitFor();
    await page.getByText('Created: there was nothing before.', { exact: false }).waitFor();
    const row = (field: string) => change.getByRole('row').filter({ has: page.getByRole('cell', { name: field, exact: true }) });
    // Fields by their titles (the recorded path is the tooltip).
    expect(await row('Directory URL').textContent()).toContain(`ldaps://127.0.0.1:${slapd.securePort}`);
    expect(await row('Bind password').textContent()).toContain('[redacted]');
    expect(await page.locator('main').textContent()).not.toContain(servicePassword);

    // The SMTP settings saved above: the settings document before (never saved) and after.
    await open('/activities/user');
    await page.getByLabel(/^Action/).selectOption('smtp_configuration.update');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('table', { name: 'User activities' }).getByRole('link', { name: 'Changed SMTP settings' }).click();
    await page.getByRole('table', { name: 'Each field before and after the change' }).getByRole('cell', { name: 'SMTP server', exact: true }).waitFor();
    expect(await page.getByRole('table', { name: 'Each field before and after the change' }).textContent()).toContain(String(mail.port));
  });

  it('logged no console errors', () => {
    expect(session.watched.errors).toEqual([]);
  });
});
