import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, defaultAdminPassword, launchBrowser, signInThroughApi, signInThroughForm, startServer, waitForLastDiscovery } from '../../tests/e2e/harness.js';

// `npm run docs:screenshots`: the README's pictures, taken of the demo in Debian's Chromium, so they show what a
// newcomer sees. Run it after a change to the dashboard or the device page.
const images = join(dirname(fileURLToPath(import.meta.url)), '../../docs/images');
mkdirSync(images, { recursive: true });

const server = await startServer({ env: { CARTOGRAPH_DEMO: '1' } });
const browser = await launchBrowser();
try {
  const token = await signInThroughApi(server.baseUrl, 'admin', defaultAdminPassword);
  await waitForLastDiscovery(server.baseUrl, token, 600_000);
  const page = await browser.context.newPage();
  page.setDefaultTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.baseUrl}/#/login`);
  await signInThroughForm(page, 'admin', defaultAdminPassword);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));

  await page.goto(`${server.baseUrl}/#/dashboard`);
  await page.getByText('Devices by operating system').waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(images, 'dashboard.png') });

  // A device known to several sources shows what merging does.
  const last = await api<{ id: number }>(server.baseUrl, '/discoveries/last', { token });
  const device = await api<{ results: { PrimaryKey: string[] }[] }>(server.baseUrl, '/devices/devices', {
    method: 'POST', token, body: { query: 'ConnectionCount >= 4', fields: ['Hostname'], page: 1, size: 1, ordering: [] },
  });
  const shown = device.body.results?.[0];
  if (!shown) throw new Error(`no device to show: ${device.status} ${JSON.stringify(device.body).slice(0, 500)}`);
  await page.goto(`${server.baseUrl}/#/device-inventory/detail/${shown.PrimaryKey[0]}/${last.body.id}`);
  await page.getByRole('tab', { name: 'Services and open ports', exact: true }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(images, 'device.png') });
  console.log(`screenshots: dashboard.png and device.png in ${images}`);
} finally {
  await browser.close();
  await server.stop();
}
