// What the notifier remembers and which kinds it shows: a session id is unique per folder only, and
// a hand-edited `loopLedger.notify.*` value is read as what it says.
import assert from 'node:assert/strict';
import { attentionEvents, newAttentionEvents } from '../../../src/engine/attention';
import type { Ledger } from '../../../src/engine/types';
import { notificationKey, notifySetting } from '../../../src/extension/notifications/keys';

function stalled(session: string): Ledger {
  return {
    session,
    status: 'closed',
    final_outcome: 'revise',
    epoch: 1,
    pending_brief: null,
    iterations: [
      { n: 1, epoch: 1, outcome: 'continue', reported_outcome: 'continue', stall: null, blocker: null },
      {
        n: 2,
        epoch: 1,
        outcome: 'revise',
        reported_outcome: 'continue',
        stall: 'circular-state',
        blocker: null,
      },
    ],
  } as unknown as Ledger;
}

describe('extension: notification keys and the notify settings', () => {
  it('the same session id in two workspace folders gives two keys, the same folder one', () => {
    const [a] = attentionEvents(stalled('build'));
    const [b] = attentionEvents(stalled('build'));
    assert.equal(a!.key, b!.key, 'the engine key alone cannot tell the folders apart');
    const one = notificationKey('/work/api', a!);
    const two = notificationKey('/work/web', b!);
    assert.notEqual(one, two);
    assert.equal(notificationKey('/work/api', b!), one, 'a re-read of the same folder is the same event');
    // What the notifier asks: the first folder announced, the second is still new.
    const shown = new Set([one]);
    const fresh = (folder: string) =>
      newAttentionEvents(
        [b!],
        shown,
        () => true,
        (event) => notificationKey(folder, event),
      );
    assert.deepEqual(fresh('/work/api'), []);
    assert.deepEqual(fresh('/work/web'), [b]);
  });

  it('a folder path holding the separator cannot be mistaken for another folder and session', () => {
    // "/a:b" + "c:1:2:stall" and "/a" + "b:c:1:2:stall" would both read "/a:b:c:1:2:stall" if joined.
    assert.notEqual(
      notificationKey('/a:b', { key: 'c:1:2:stall' }),
      notificationKey('/a', { key: 'b:c:1:2:stall' }),
    );
  });

  it('a boolean is itself; the words "false" and "true" are read as they say', () => {
    assert.equal(notifySetting(true), true);
    assert.equal(notifySetting(false), false);
    assert.equal(notifySetting('false'), false);
    assert.equal(notifySetting(' FALSE '), false);
    assert.equal(notifySetting('true', false), true);
  });

  it('anything else keeps the default: an unreadable value does not silence a loop', () => {
    for (const value of [undefined, null, 0, 1, 'off', 'no', '', {}, []]) {
      assert.equal(notifySetting(value), true, `${JSON.stringify(value)} → on`);
      assert.equal(notifySetting(value, false), false, `${JSON.stringify(value)} → the given default`);
    }
  });
});
