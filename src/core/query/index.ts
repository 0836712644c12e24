export * from './ast.js';
export { resolveDateMath } from './dateMath.js';
export { parseQuery } from './parser.js';
export { printQuery, printValue } from './printer.js';
export { addressRangeOf, addressValuePattern, type AddressRange } from './networks.js';
