// `loop-ledger`: every command, the usage text and the version (dispatch: start.ts).
// Start-up time is the product here (an agent calls this once per iteration): the bundle is one
// small file, and the contract validator reads its shape from the generated JSON schema rather
// than loading the schema library (see src/engine/contract/shape.ts).
import { COMMANDS, RAW_COMMANDS } from './command-table';
import { startCli } from './start';
import { USAGE } from './usage-text';

startCli({ commands: COMMANDS, raw: RAW_COMMANDS, usage: USAGE }, process.argv.slice(2));
