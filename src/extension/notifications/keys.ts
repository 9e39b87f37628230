// What the notifier remembers and which kinds it announces, as plain functions (no vscode) so the
// unit tests read them directly.
import type { AttentionEvent } from '../../engine/attention';

/**
 * The key a notification is remembered by: the workspace folder and the engine's
 * `session:epoch:n:kind`. A session id is unique within one folder only; in a multi-root workspace
 * two folders may both hold a session `build`, and without the folder the second one's stall
 * would count as already announced. JSON keeps the pair unambiguous whatever the path contains.
 */
export function notificationKey(folderPath: string, event: Pick<AttentionEvent, 'key'>): string {
  return JSON.stringify([folderPath, event.key]);
}

/**
 * Whether a `loopLedger.notify.<kind>` value switches the notification on. A boolean is itself. A
 * hand-edited settings.json may hold the string "false" (or "true"): VS Code hands it over as is,
 * and a plain truthiness test would read "false" as on, so a person who asked for silence would
 * still be interrupted; the words are read as what they say. Any other value (a number, null, a
 * typo) is not a choice we can read, so the default holds: a notification that should have been
 * shown is worse to lose than one that could have been off.
 */
export function notifySetting(value: unknown, fallback = true): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'false') return false;
    if (word === 'true') return true;
  }
  return fallback;
}
