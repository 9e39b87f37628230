// `loop-ledger run --node`'s operation: one DAG node, run as a child `loop-ledger run` and its
// receipt mapped to the node result the original's node runner prints. The process work is the
// driver's; shells reach it through here.
export { runNode } from '../../drivers/run/node-runner';
