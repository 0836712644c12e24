import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { VegaLiteSpec } from '../../core/dashboards/widgetSpecs.js';

/**
 * Draws a dashboard's Vega-Lite spec as SVG on the server with vega's own headless renderer (no browser, no canvas):
 * the console's `container` size becomes a fixed one and the font one the PDF has.
 */
export async function chartSvg(spec: VegaLiteSpec, width: number, height: number): Promise<string> {
  const config = { ...(spec.config as object), font: 'Helvetica', background: 'white' };
  const fixed = { ...spec, width, height, autosize: { type: 'fit', contains: 'padding' }, config } as Parameters<typeof compile>[0];
  const view = new vega.View(vega.parse(compile(fixed).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
