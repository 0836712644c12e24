// The Vega-Lite specifications live in src/core so the server draws report charts from the same ones.
export * from '../../../core/dashboards/widgetSpecs';
