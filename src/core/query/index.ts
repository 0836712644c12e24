export * from './ast.js';
export { resolveDateMath } from './dateMath.js';
export { parseQuery } from './parser.js';
export { printQuery } from './printer.js';
