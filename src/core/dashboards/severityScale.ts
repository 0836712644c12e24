/** The console's colour scheme a chart is drawn for (widgetSpecs.ts re-exports it with the specs). */
export type ChartTheme = 'light' | 'dark';

/** Severity names in order, worst first, as the vulnerability widgets and findings name them. */
export const severityNames = ['Critical', 'High', 'Medium', 'Low', 'None', 'Unknown'] as const;

// By the convention users know from scanners and advisories: Critical dark red, High red-orange, Medium amber, Low
// blue, and grey for nothing or unknown. The dark theme lightens each so it stays readable on a dark surface.
const severityColours: Record<ChartTheme, readonly string[]> = {
  light: ['#7f1d1d', '#ea580c', '#f59e0b', '#3b82f6', '#94a3b8', '#64748b'],
  dark: ['#dc2626', '#fb923c', '#fbbf24', '#60a5fa', '#94a3b8', '#cbd5e1'],
};

/** True when every label is a severity name: such a chart is coloured by the severity scale. */
export function areSeverities(labels: readonly unknown[]): boolean {
  const names: readonly unknown[] = severityNames;
  return labels.length > 0 && labels.every((label) => names.includes(label));
}

/**
 * The one colour scale of severities, for every chart that shows them: each name keeps its colour whichever of them
 * a result holds, so "High" is the same orange in a pie, a bar chart and a trend.
 */
export function severityScale(theme: ChartTheme): { domain: string[]; range: string[] } {
  return { domain: [...severityNames], range: [...severityColours[theme]] };
}
