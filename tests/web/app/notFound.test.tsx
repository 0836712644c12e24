import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getBreadcrumb, setBreadcrumb } from '../../../src/web/app/shell/breadcrumb';
import { NotFound } from '../../../src/web/pages/system/NotFound';

async function renderNotFound() {
  const root = createRootRoute();
  const page = createRoute({ getParentRoute: () => root, path: '/', component: NotFound });
  const dashboard = createRoute({ getParentRoute: () => root, path: '/dashboard', component: () => <p>dashboard route</p> });
  const router = createRouter({ routeTree: root.addChildren([page, dashboard]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  await act(async () => {
    render(<RouterProvider router={router} />);
    await router.load();
  });
  return router;
}

describe('the Not Found screen', () => {
  it('shows the spec heading and text, sets the tab title and clears the breadcrumb', async () => {
    setBreadcrumb([{ label: 'Settings' }, { label: 'Users' }]);
    await renderNotFound();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(screen.getByText('There might be an issue with the link. Please check the URL and try again.')).toBeTruthy();
    expect(document.title).toBe('404 - Cartograph');
    expect(getBreadcrumb()).toEqual([]);
  });

  it('has a light and a dark image, 300 wide', async () => {
    await renderNotFound();
    const images = [...document.querySelectorAll('.not-found img')] as HTMLImageElement[];
    expect(images.map((image) => image.getAttribute('src'))).toEqual(['./images/not-found-light.svg', './images/not-found-dark.svg']);
    expect(images.every((image) => image.getAttribute('width') === '300')).toBe(true);
  });

  it('goes to the dashboard route with a success-type "Go to Home" button', async () => {
    const router = await renderNotFound();
    const button = screen.getByRole('button', { name: 'Go to Home' });
    expect(button.className).toContain('button--success');
    await act(async () => void fireEvent.click(button));
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
