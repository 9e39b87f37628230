// The one store-choice rule the CLI and the extension share: what a store URL and a project must
// be, how a password is recognised (the extension refuses one in settings) and put into the URL
// in memory, and that the PostgreSQL code stays in its own bundle.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  chooseStore,
  StoreChoiceError,
  urlHasPassword,
  withPassword,
} from '../../../src/app/ledger/store-choice';
import { storeAddress } from '../../../src/store/pg/address';

const repo = resolve(__dirname, '../../../..');

describe('store choice (shared by the CLI and the extension)', () => {
  it('takes a postgres URL, defaults the project to the root folder name, and refuses the rest without echoing the URL', () => {
    const chosen = chooseStore({ url: 'postgres://u@h/db', from: 'loopLedger.store', root: '/w/my-app' });
    assert.equal(chosen.project, 'my-app');
    assert.equal(chosen.retryMs, 15_000);
    assert.throws(
      () => chooseStore({ url: 'mysql://u:hunter2@h/db', from: 'loopLedger.store', root: '/w/a' }),
      (e: Error) =>
        e instanceof StoreChoiceError &&
        /^loopLedger\.store: not a postgres/.test(e.message) &&
        !e.message.includes('hunter2'),
    );
    assert.throws(
      () =>
        chooseStore({
          url: 'postgres://h/db',
          from: 'x',
          project: 'a\nb',
          projectFrom: 'loopLedger.project',
          root: '/w',
        }),
      /loopLedger\.project: 1 to 200 characters/,
    );
  });

  it('recognises a password in the URL, as userinfo or as a query parameter', () => {
    assert.equal(urlHasPassword('postgres://u@h:5432/db?sslmode=require'), false);
    assert.equal(urlHasPassword('postgres://u:pw@h/db'), true);
    assert.equal(urlHasPassword('postgres://u@h/db?password=pw'), true);
    assert.equal(urlHasPassword('postgres://u:p w@h/db'), true);
  });

  it('puts the password into the URL encoded, and the redaction knows every spelling of it', () => {
    const secret = "it's a s3cret/\\@:%";
    const url = withPassword('postgres://agent@h:5432/db?sslmode=require', secret);
    const parsed = new URL(url);
    assert.equal(decodeURIComponent(parsed.password), secret);
    assert.equal(parsed.searchParams.get('sslmode'), 'require');
    assert.ok(storeAddress(url).secrets.includes(secret));
    assert.equal(withPassword('postgres://agent@h/db', undefined), 'postgres://agent@h/db');
  });

  it('the extension and the CLI launcher carry no PostgreSQL code: it is in dist/pg.js alone', () => {
    for (const bundle of ['dist/extension.js', 'dist/cli-main.js']) {
      const text = readFileSync(resolve(repo, bundle), 'utf8');
      // The follower's application name and the driver's protocol parser live only in pg.js.
      assert.ok(!text.includes('loop-ledger-follow'), `${bundle} holds the follower`);
      assert.ok(!text.includes('pg-protocol'), `${bundle} holds the driver`);
    }
    const pg = readFileSync(resolve(repo, 'dist/pg.js'), 'utf8');
    assert.ok(pg.includes('loop-ledger-follow'));
  });
});
