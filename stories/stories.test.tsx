import { composeStories, setProjectAnnotations, type composeStory } from '@storybook/react-vite';
import { render } from '@testing-library/react';
import { clearAllMocks } from 'storybook/test';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as preview from '../.storybook/preview';

type StoryModule = Parameters<typeof composeStories>[0];
type ComposedStory = ReturnType<typeof composeStory>;

// Every story of stories/ is rendered here (portable stories): a new story file is tested without touching this file.
const modules = import.meta.glob<StoryModule>('./**/*.stories.tsx', { eager: true });
const annotations = setProjectAnnotations([preview]);
beforeAll(annotations.beforeAll);

let consoleErrors: unknown[][] = [];
beforeEach(() => {
  // Spies made with fn() in a meta's args are shared by its stories; Storybook resets them per story, so do we.
  clearAllMocks();
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void consoleErrors.push(args));
});
afterEach(() => vi.restoreAllMocks());

describe('stories', () => {
  it('are found', () => {
    expect(Object.keys(modules).length).toBeGreaterThan(0);
  });
});

for (const [file, module] of Object.entries(modules)) {
  const stories = Object.entries(composeStories(module)) as [string, ComposedStory][];
  // A stories file whose stories are generated while Storybook builds (the adapter connection forms) has none here;
  // it carries its own test.
  if (stories.length === 0) continue;
  describe(file.replace(/^\.\//, ''), () => {
    for (const [name, Story] of stories) {
      it(`renders the ${name} story without errors and runs its play function`, async () => {
        const { container } = render(<Story />);
        await Story.play?.({ canvasElement: container });
        // A story must show something (a dialog renders into document.body, outside the container).
        expect(document.body.textContent?.trim().length ?? 0).toBeGreaterThan(0);
        expect(consoleErrors).toEqual([]);
      });
    }
  });
}
