// The runs in progress in this window: their phase for the Sessions tree and the progress
// notification, and the cancel handle. Keyed by workspace root and session.
import * as vscode from 'vscode';
import type { Progress } from '../../app/run/operation';
import { phaseLabel } from './phaseLabel';

export { phaseLabel };

export interface LiveRun {
  readonly root: string;
  readonly session: string;
  readonly runId: string;
  readonly controller: AbortController;
  progress?: Progress;
}

export class LiveRuns implements vscode.Disposable {
  private readonly runs = new Map<string, LiveRun>();
  private readonly changed = new vscode.EventEmitter<LiveRun>();
  /** Fires on start, on every phase change and tick, and on end. */
  readonly onDidChange = this.changed.event;
  /** Every label shown, in order (the integration tests read the phases a run went through). */
  readonly history: string[] = [];

  private static key(root: string, session: string): string {
    return `${root}\0${session}`;
  }

  get(root: string, session: string): LiveRun | undefined {
    return this.runs.get(LiveRuns.key(root, session));
  }

  all(): LiveRun[] {
    return [...this.runs.values()];
  }

  start(run: LiveRun): void {
    this.runs.set(LiveRuns.key(run.root, run.session), run);
    this.changed.fire(run);
  }

  update(run: LiveRun, progress?: Progress): void {
    if (progress) {
      run.progress = progress;
      const label = phaseLabel(progress, progress.startedAt);
      if (this.history[this.history.length - 1] !== label) this.history.push(label);
    }
    this.changed.fire(run);
  }

  end(run: LiveRun): void {
    this.runs.delete(LiveRuns.key(run.root, run.session));
    this.changed.fire(run);
  }

  dispose(): void {
    for (const run of this.runs.values()) run.controller.abort();
    this.runs.clear();
    this.changed.dispose();
  }
}

/** The one registry of this window (the Sessions tree reads it to label a running session). */
export const liveRuns = new LiveRuns();
