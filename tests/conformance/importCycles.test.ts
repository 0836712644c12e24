import { describe, expect, it } from 'vitest';
import { buildImportGraph, cyclicGroups, describeCycle, type ImportGraph } from '../support/importGraph.js';

// No import cycle anywhere in src/ (server, console, core, connector). Type-only imports count too: they are erased
// at run time, but a type cycle still ties modules together (neither can be read, moved or tested without the other),
// and the 17-file cycle this test was written against ran through them. Ignoring them would let that come back.
const strict = { includeTypeOnly: true };

describe('import cycles in src/', () => {
  const graph = buildImportGraph('src');

  it('reads the import graph (the check below is not empty)', () => {
    expect(graph.size).toBeGreaterThan(500);
    expect(graph.get('server/context.ts')?.map((edge) => edge.target)).toContain('server/jobs/jobBus.ts');
    expect(graph.get('web/pages/inventories/listActions.tsx')?.map((edge) => edge.target)).toContain('web/pages/inventories/DeviceListActions.tsx');
  });

  it('has no cycle', () => {
    expect(cyclicGroups(graph, strict).map((group) => describeCycle(graph, group, strict))).toEqual([]);
  });

  it('names a cycle when one exists, type-only imports included', () => {
    const cyclic: ImportGraph = new Map([
      ['a.ts', [{ target: 'b.ts', typeOnly: false }]],
      ['b.ts', [{ target: 'c.ts', typeOnly: false }]],
      ['c.ts', [{ target: 'a.ts', typeOnly: true }]],
      ['d.ts', [{ target: 'a.ts', typeOnly: false }]],
    ]);
    const groups = cyclicGroups(cyclic, strict);
    expect(groups).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(describeCycle(cyclic, groups[0], strict)).toBe('a.ts → b.ts → c.ts → a.ts');
    expect(cyclicGroups(cyclic, { includeTypeOnly: false })).toEqual([]);
  });
});
