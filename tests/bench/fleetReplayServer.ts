// Child-process entry of the discovery bench's replay server: `fleetReplayServer.ts <devices> [software]` generates the bench's
// fleet, serves it on 127.0.0.1 and tells the parent (over IPC) where. It exits when the parent goes away.
import { benchFleet, overlap, type FleetReplayReady } from './fleetReplay.js';
import { startFleetReplayServer } from './fleetReplayRoutes.js';

if (!process.send) throw new Error('fleetReplayServer.ts runs as a child process of the discovery bench');
process.on('disconnect', () => process.exit(0));
const fleet = benchFleet(Number(process.argv[2]));
const { url, served } = await startFleetReplayServer(fleet, process.argv[3] === 'software');
process.send({ url, served, devices_in_two_or_more_sources: overlap(fleet) } satisfies FleetReplayReady);
