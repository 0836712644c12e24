import { describe, expect, it } from 'vitest';
import { compileTemplate, render, renderDeep, TemplateError, truthy } from '../../../../src/server/adapters/http/template.js';

const scope = {
  config: { base_url: 'https://api.example.com/', auth: { auth_type: 'basic', username: 'svc' }, tables: ['a b', 'c'] },
  record: {
    name: 'WS-0042',
    mac: '00-1A-2B-3C-4D-5E',
    addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'node-1' }],
    '@odata.nextLink': 'https://next',
    seen: 1710417600,
    seenMs: 1710417600000,
    plain: '2024-03-14 12:00:00',
    nested: { list: [{ value: 1 }, { value: 2 }] },
    minions: { a: { id: 'a' }, down: false, empty: { id: '' }, other: { x: 1 }, b: { id: 'b' } },
  },
  page: { offset: 500, limit: 500 },
};

describe('the template interpreter', () => {
  it('substitutes dotted paths, bracket keys and negative indexes into text', () => {
    expect(render('{{ config.base_url }}api/{{ record.name }}', scope)).toBe('https://api.example.com/api/WS-0042');
    expect(render("{{ record['@odata.nextLink'] }}", scope)).toBe('https://next');
    expect(render('{{ record.addresses[-1].address }}', scope)).toBe('node-1');
  });

  it('yields the raw value when the template is exactly one expression', () => {
    expect(render('{{ record.nested.list }}', scope)).toEqual([{ value: 1 }, { value: 2 }]);
    expect(render('{{ page.offset + page.limit - 1 }}', scope)).toBe(999);
    expect(render('{{ record.missing }}', scope)).toBeUndefined();
  });

  it('compares, combines with and/or/not, and uses or as a coalesce', () => {
    expect(render("{{ config.auth.auth_type == 'basic' }}", scope)).toBe(true);
    expect(render("{{ config.auth.auth_type != 'basic' or not config.auth.username }}", scope)).toBe(false);
    expect(render("{{ record.fqdn or record.name }}", scope)).toBe('WS-0042');
    expect(render('{{ page.offset >= 500 and page.limit < 1000 }}', scope)).toBe(true);
  });

  it('applies filters with arguments, chained', () => {
    expect(render("{{ record.addresses | where('type', 'InternalIP') | pluck('address') | first }}", scope)).toBe('10.0.0.1');
    expect(render("{{ record.addresses | within('type', ['InternalIP', 'ExternalIP']) | pluck('address') }}", scope)).toEqual(['10.0.0.1']);
    expect(render("{{ record.addresses | within('type', []) }}", scope)).toEqual([]);
    expect(render('{{ record.mac | mac }}', scope)).toBe('00:1a:2b:3c:4d:5e');
    expect(render("{{ config.tables | join('|') }}", scope)).toBe('a b|c');
    expect(render('{{ config.tables | first | urlencode }}', scope)).toBe('a%20b');
    expect(render("{{ record.none | default('fallback') }}", scope)).toBe('fallback');
    expect(render('{{ record.nested.list | pluck("value") | length }}', scope)).toBe(2);
    expect(render("{{ 'a,b,,c' | split(',') | compact }}", scope)).toEqual(['a', 'b', 'c']);
    expect(render("{{ record.minions | values | where('id') | pluck('id') }}", scope)).toEqual(['a', 'b']);
  });

  it('turns epoch seconds, epoch milliseconds and zone-less datetimes into ISO 8601 UTC', () => {
    expect(render('{{ record.seen | date }}', scope)).toBe('2024-03-14T12:00:00.000Z');
    expect(render('{{ record.seenMs | date }}', scope)).toBe('2024-03-14T12:00:00.000Z');
    expect(render('{{ record.plain | date }}', scope)).toBe('2024-03-14T12:00:00.000Z');
    expect(render("{{ '20240301' | date }}", scope)).toBe('2024-03-01T00:00:00.000Z');
    expect(render("{{ '20241399' | date }}", scope)).toBe('20241399');
    expect(render("{{ 'not a date' | date }}", scope)).toBe('not a date');
  });

  it('gives epoch milliseconds some seconds before now with ago (a search window ending now)', () => {
    const before = Date.now();
    const value = render('{{ 86400 | ago }}', scope) as number;
    expect(value).toBeGreaterThanOrEqual(before - 86_400_000);
    expect(value).toBeLessThanOrEqual(Date.now() - 86_400_000);
    expect(render("{{ 'soon' | ago }}", scope)).toBeUndefined();
  });

  it('gives a fresh random UUID with uuid, whatever the value (a WS-Management MessageID per request)', () => {
    const first = render("{{ '' | uuid }}", scope) as string;
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(render("{{ '' | uuid }}", scope)).not.toBe(first);
  });

  it('picks the largest item with max: numbers by value, dates by time once they are ISO text', () => {
    expect(render('{{ [3, 12, 7] | max }}', {})).toBe(12);
    expect(render("{{ ['2024-03-14T08:00:00Z', '2024-06-01T00:00:00Z', null, '2023-12-31T23:59:59Z'] | date | max }}", {})).toBe('2024-06-01T00:00:00.000Z');
    expect(render('{{ [] | max }}', {})).toBeUndefined();
  });

  it('lays a date out as a vendor query wants it with date_format (UTC)', () => {
    expect(render("{{ record.seenMs | date_format('DD/MM/YYYY HH:mm:ss') }}", scope)).toBe('14/03/2024 12:00:00');
    expect(render("{{ record.plain | date_format('YYYY-MM-DD') }}", scope)).toBe('2024-03-14');
    expect(render("{{ 'never' | date_format('YYYY') }}", scope)).toBeUndefined();
  });

  it('drops object keys whose whole-template value is undefined and renders key templates', () => {
    expect(renderDeep({ keep: '{{ page.offset }}', drop: '{{ page.cursor }}', '{{ record.name }}': 'asc', list: ['{{ record.name }}'] }, scope)).toEqual({
      keep: 500,
      'WS-0042': 'asc',
      list: ['WS-0042'],
    });
  });

  it('never reaches prototypes, constructors or functions', () => {
    expect(render('{{ record.__proto__ }}', scope)).toBeUndefined();
    expect(render("{{ record['constructor'] }}", scope)).toBeUndefined();
    expect(render('{{ record.constructor.constructor }}', scope)).toBeUndefined();
    expect(render('{{ record.name.constructor }}', scope)).toBeUndefined();
    expect(render('{{ config.tables.map }}', scope)).toBeUndefined();
    expect(render("{{ record.name['toString'] }}", scope)).toBeUndefined();
    expect(renderDeep({ __proto__: 'x' } as unknown, scope)).toEqual({});
    expect(render('{{ process }}', scope)).toBeUndefined();
    expect(render('{{ globalThis }}', scope)).toBeUndefined();
  });

  it('rejects calls, unknown filters, assignments and unterminated parts with a template error', () => {
    for (const hostile of ['{{ record.name() }}', "{{ record | eval('1') }}", '{{ a = 1 }}', '{{ record.name', "{{ 'open }}", '{{ ; }}', '{{ `x` }}', '{{ record.name | }}']) {
      expect(() => render(hostile, scope), hostile).toThrow(TemplateError);
    }
  });

  it('bounds nesting depth, template length and rendered size', () => {
    expect(() => compileTemplate(`{{ ${'('.repeat(200)}1${')'.repeat(200)} }}`)).toThrow(/nested too deeply/);
    expect(() => compileTemplate(`{{ ${'not '.repeat(200)}true }}`)).toThrow(/nested too deeply/);
    expect(() => compileTemplate(`{{ record.name }}${'x'.repeat(5000)}`)).toThrow(/longer than/);
    const big = { text: 'x'.repeat(600_000) };
    expect(() => render('{{ big.text + big.text }}', { big })).toThrow(/too long/);
  });

  it('treats false, null, empty text, zero, "false", "0" and empty lists as false', () => {
    for (const value of [false, null, undefined, '', 0, 'false', '0', []]) expect(truthy(value), JSON.stringify(value)).toBe(false);
    for (const value of [true, 'yes', 1, ['x'], {}]) expect(truthy(value), JSON.stringify(value)).toBe(true);
  });
});
