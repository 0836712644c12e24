import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePath, launchBrowser, signInThroughForm, startServer, watchConsole, type Browser, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // No CARTOGRAPH_ADMIN_PASSWORD: the server generates one, prints it once and marks it expired.
  server = await startServer({ adminPassword: null });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('first sign-in with the generated administrator password', () => {
  it('asks for a new password, notifies a refused one, then continues to the original page', async () => {
    const generated = /one-time password: (\S+)/.exec(server.stdout())?.[1];
    expect(generated).toBeTruthy();
    const page = await browser.context.newPage();
    const watched = watchConsole(page);
    await page.goto(`${server.baseUrl}/#/account-settings`);
    await page.waitForURL(/#\/login/);
    await signInThroughForm(page, 'admin', generated as string);
    await page.waitForURL(/#\/password-expired/);
    expect(consolePath(page)).toBe('/password-expired?redirect=/account-settings');

    // A password the policy refuses: the failing call's notification appears and the field lists the reason.
    await page.getByLabel('Current password').fill(generated as string);
    await page.getByLabel('New password', { exact: true }).fill('password');
    await page.getByLabel('Confirm the new password').fill('password');
    await page.getByRole('button', { name: 'Change password' }).click();
    const notification = page.getByRole('region', { name: 'Notifications' }).getByRole('alert');
    await notification.waitFor();
    expect(await notification.innerText()).toContain('An error occurred');
    expect(await page.locator('.field-error').count()).toBeGreaterThan(0);

    await page.getByLabel('New password', { exact: true }).fill('Brand-new-e2e-Pass-31!');
    await page.getByLabel('Confirm the new password').fill('Brand-new-e2e-Pass-31!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(/#\/account-settings$/);
    const stored = await page.evaluate(() => localStorage.getItem('cartograph.token'));
    expect(stored?.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(stored!.split('.')[1]!, 'base64url').toString()).pwx).not.toBe(true);
    expect(watched.errors).toEqual([]);
    await page.close();
  });
});
