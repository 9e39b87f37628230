/** The contract editor's commands (declared in package.json `contributes.commands`). */
export const VALIDATE_CONTRACT_COMMAND = 'loopLedger.validateContract';
/** Registered by the Open Loop feature; the CodeLens hands it the contract's URI. */
export const OPEN_LOOP_COMMAND = 'loopLedger.openLoop';
