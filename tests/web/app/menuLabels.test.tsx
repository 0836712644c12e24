import { describe, expect, it } from 'vitest';
import { mainMenu, menuLabel, settingsMenu } from '../../../src/web/app/shell/menu';
import messages from '../../../src/web/public/locales/en-US.json';

describe('the menu labels', () => {
  it('come from a menu.<path> message for every entry, so no entry shows its key', () => {
    const entries = [...mainMenu, ...settingsMenu];
    expect(entries.filter((item) => !(`menu.${item.path}` in messages)).map((item) => item.path)).toEqual([]);
    expect(menuLabel({ path: '/device-inventory' })).toBe('Devices');
  });
});
