import { readConfig } from './config.js';
import { boundHeapGrowth } from './heapGrowth.js';
import { startCartograph } from './server.js';

// `npm run worker`: an extra discovery worker sharing the job queue with the API processes (PostgreSQL only:
// the embedded database belongs to the one process that opened it).
boundHeapGrowth();
const config = readConfig();
if (!config.databaseUrl) {
  process.stderr.write('npm run worker needs DATABASE_URL: extra workers share a PostgreSQL database with the API process.\n');
  process.exit(1);
}
const cartograph = await startCartograph(config);
cartograph.app.log.info('discovery worker started');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void cartograph.close().then(() => process.exit(0)));
}
