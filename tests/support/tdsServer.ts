// The TDS test server (a small SQL Server for tests) lives with the adapter kit, which replays sql-views fixtures
// outside the tests too.
export * from '../../tools/adapterKit/tdsServer.js';
