import { readConfig } from './config.js';
import { boundHeapGrowth } from './heapGrowth.js';
import { startCartograph } from './server.js';

boundHeapGrowth();
const config = readConfig();
const cartograph = await startCartograph(config);
const address = await cartograph.app.listen({ host: config.host, port: config.port });
const consoleUrl = address.replace('0.0.0.0', '127.0.0.1');

const first = cartograph.firstAdministrator;
// Printed on stdout only (never through the logger), so a generated password stays out of log files.
const lines = [
  `Cartograph is ready at ${consoleUrl}`,
  ...(first ? [`Sign in as "${first.username}"${first.generated ? ` with the one-time password: ${first.password}` : ' with CARTOGRAPH_ADMIN_PASSWORD'}`] : []),
  ...(first?.generated ? ['You will be asked to choose your own password at first sign-in.'] : []),
];
process.stdout.write(`\n${lines.map((line) => `  ${line}`).join('\n')}\n\n`);

// Graceful shutdown: stop accepting requests, let in-flight ones finish, then close the database cleanly.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    cartograph.app.log.info({ signal }, 'shutting down');
    cartograph
      .close()
      .then(() => process.exit(0))
      .catch((error) => {
        cartograph.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
