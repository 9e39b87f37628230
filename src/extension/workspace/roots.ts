import * as vscode from 'vscode';

/** A workspace folder on the local file system, where ledgers can live. */
export interface WorkspaceRoot {
  readonly name: string;
  /** Absolute file-system path: the `--root` the store and the CLI take. */
  readonly path: string;
}

/**
 * Every workspace folder the store can read. Folders on other schemes (virtual file systems)
 * are left out: the store works with node:fs paths.
 */
export function workspaceRoots(): WorkspaceRoot[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ name: folder.name, path: folder.uri.fsPath }));
}
