import { act, render, screen, within } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { useEffect, type ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Breadcrumb } from '../../../src/web/app/shell/Breadcrumb';
import { clearBreadcrumb, setBreadcrumb, shownTrail } from '../../../src/web/app/shell/breadcrumb';
import { PageHeader } from '../../../src/web/ui';

afterEach(() => clearBreadcrumb());

function TaggedPage() {
  useEffect(() => setBreadcrumb([{ label: 'Devices', to: '/device-inventory' }, { label: 'Tags' }]), []);
  return <PageHeader title="Device tags" />;
}

async function renderAt(component: () => ReactElement, settings = false) {
  const root = createRootRoute();
  const page = createRoute({ getParentRoute: () => root, path: '/', component: () => <><Breadcrumb settings={settings} />{component()}</> });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  await act(async () => {
    render(<RouterProvider router={router} />);
    await router.load();
  });
}

const trailShown = () => within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getAllByRole('listitem').map((item) => item.textContent);

describe('the breadcrumb', () => {
  it('ends with the page\'s title, whatever the page named its last step', async () => {
    await renderAt(() => <TaggedPage />);
    expect(trailShown()).toEqual(['Devices', 'Device tags']);
  });

  it('puts a settings page that sets no trail under Settings', async () => {
    await renderAt(() => <PageHeader title="SMTP configuration" />, true);
    expect(trailShown()).toEqual(['Settings', 'SMTP configuration']);
  });

  it('never keeps the trail of a page left behind when the page opened has a title', () => {
    expect(shownTrail([], 'Companies', null)).toEqual([{ label: 'Companies' }]);
    expect(shownTrail([{ label: 'Action center', to: '/action-center' }, { label: 'Settings' }], 'Action center settings', null))
      .toEqual([{ label: 'Action center', to: '/action-center' }, { label: 'Action center settings' }]);
    expect(shownTrail([{ label: 'Home' }], null, null)).toEqual([{ label: 'Home' }]);
  });
});
