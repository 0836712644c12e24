// Engines called directly in tests run as an installation that allows loopback (where their replay servers listen).
export { loopbackAllowed } from '../../tools/adapterKit/fixtureReplay.js';
