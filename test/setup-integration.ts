// Integration test files share their worker's modules (vitest.config.ts: `isolate: false`, so the server's
// thousand modules load once per worker, not once per file: about half of the project's time). Before each
// file, this puts back the process-wide state an earlier file may have left, as a fresh process has it:
// - the egress policy, read from no database (an earlier app's pool is gone with its database; buildApp
//   points it at the new app's own);
// - the view tables' descriptions for /api/db, cached per view name, not per database;
// - the process keyring, the one of WATCHKEEPER_DATA or ./data (an earlier file may have called initSecrets
//   with a directory of its own; `serve` children of this file read ./data).
// A test helper module that holds state (a pool, a server) must leave it usable for the next file too.
import { useEgressPolicyFrom } from '../server/platform/egress';
import { initSecrets } from '../server/platform/secrets';
import { forgetRelations } from '../server/features/views/engine/relation';

useEgressPolicyFrom(undefined);
forgetRelations();
initSecrets(process.env.WATCHKEEPER_DATA ?? './data');
