import type * as vscode from 'vscode';
import type { PrompterSlot } from '../input';
import type { SessionsNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import type { TrustGate } from '../workspace/trust';
import type { CliHistory } from './cliHistory';

/** What every Loop Ledger command is built with; one object so adding a command is one line. */
export interface CommandDeps {
  readonly prompter: PrompterSlot;
  readonly sessions: SessionsTreeProvider;
  readonly trust: TrustGate;
  readonly output: vscode.OutputChannel;
  readonly cliHistory: CliHistory;
  /** The clock the operations stamp records with (the engine takes `now`, never reads it). */
  readonly now: () => Date;
  /** The Sessions view's selected nodes: a palette command without an argument acts on the one selected. */
  readonly selection?: () => readonly SessionsNode[];
}

/** What a command returns to its caller (tests read it; people read the notification). */
export interface CommandReport<P = unknown> {
  readonly status: 'done' | 'refused' | 'cancelled' | 'untrusted' | 'nothing-to-do';
  /** The sentence shown to the person. */
  readonly message?: string;
  readonly exitCode?: number;
  readonly findings?: readonly string[];
  readonly payload?: P;
  /** The same action as a `loop-ledger` command line. */
  readonly cli?: string;
}
