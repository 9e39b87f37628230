#!/usr/bin/env bash
# One-time setup on a fresh Debian machine: system packages for the real-VS-Code tiers, the npm
# dependencies from the lock file, then the cached code-server + Node 24 toolchain. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

# postgresql: the PostgreSQL store's tests start throwaway clusters of their own (initdb, pg_ctl).
apt_packages=(chromium libkrb5-dev pkg-config git postgresql openssl)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]} with apt-get"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Install scripts run only for the packages package.json "allowScripts" approves (npm 11):
# esbuild (checks its platform binary); @vscode/vsce-sign is denied (signing is never used here).
npm ci --no-audit --no-fund
if [ -f scripts/vscode-server.mjs ]; then node scripts/vscode-server.mjs install; fi
