import type { Result } from 'vega-embed';
import { VegaEmbed } from 'react-vega';
import type { VisualizationSpec } from 'vega-embed';
import { queryOfDatum, type VegaLiteSpec } from './widgetSpecs';

export type VegaChartProps = { spec: VegaLiteSpec; label: string; onSegment?: (query: string) => void };

/**
 * The one module that imports the vega stack; dashboard pages load it lazily, so no other page pays for it.
 * A click on a mark hands the mark's inventory query to `onSegment`.
 */
export function VegaChart({ spec, label, onSegment }: VegaChartProps) {
  const onEmbed = (result: Result) => {
    if (!onSegment) return;
    result.view.addEventListener('click', (_event, item) => {
      const query = queryOfDatum((item as { datum?: unknown } | null | undefined)?.datum);
      if (query !== null) onSegment(query);
    });
  };
  return (
    <VegaEmbed
      className="dashboard-vega"
      role="img"
      aria-label={label}
      spec={spec as VisualizationSpec}
      // The console's CSP has no 'unsafe-eval' and no inline styles: `ast` makes Vega interpret its expressions
      // instead of compiling them with new Function, and the embed and tooltip styles live in dashboards.css.
      options={{ actions: false, renderer: 'svg', ast: true, defaultStyle: false, tooltip: { disableDefaultStyle: true } }}
      onEmbed={onEmbed}
      onError={(error) => console.warn('chart', error)}
    />
  );
}
