// How the tiers launch Debian's Chromium with playwright-core: headless, no sandbox (root in a
// container), and no background traffic (updates, sync, QUIC) on a machine without network.
// Playwright's launch() already gives each browser a fresh temporary profile.
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.LOOP_LEDGER_CHROMIUM || '/usr/bin/chromium';

export function chromiumLaunchOptions() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: install Debian's browser with \`apt-get install -y chromium\``);
  }
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}
