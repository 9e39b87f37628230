// A --store value that starts as a postgres URL but cannot be parsed (a broken host, a port out
// of range) is a usage error naming where it came from (exit 2), like any other bad store value:
// never "internal error … this is a bug" (exit 70), and never the password.
import assert from 'node:assert/strict';
import { runCli, tempRoot } from '../helpers/cli';

describe('cli: a malformed --store connection string', () => {
  for (const url of ['postgres://agent:s3cretPW@[bad/db', 'postgres://agent:s3cretPW@host:99999/db']) {
    for (const [how, args, env] of [
      ['--store', ['--store', url], {}],
      ['LOOP_LEDGER_STORE', [], { LOOP_LEDGER_STORE: url }],
    ] as const) {
      it(`${url.replace('s3cretPW', '***')} from ${how}: exit 2, naming ${how}, no password`, () => {
        const r = runCli(['list', '--root', tempRoot('store-url-'), ...args], { env: { ...env } });
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, new RegExp(how));
        assert.doesNotMatch(r.stderr, /internal error|bug/);
        assert.doesNotMatch(r.stderr + r.stdout, /s3cretPW/);
      });
    }
  }
});
