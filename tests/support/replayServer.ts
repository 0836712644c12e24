// The replay server lives with the adapter kit (tools/adapterKit), which replays fixtures outside the tests too.
export * from '../../tools/adapterKit/replayServer.js';
