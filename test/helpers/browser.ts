/**
 * Debian's chromium driven by playwright-core (no browser download). Tests skip with a clear
 * message when /usr/bin/chromium is absent; `.ci/run` installs it with apt-get.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Why each flag: no sandbox (containers run as root), and no network chatter of its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

export const SKIP_REASON = `${CHROMIUM_PATH} is missing: install it (apt-get install -y chromium) to run the browser tests`;

export function hasChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Launches chromium headless. The profile is fresh every time: playwright's `launch` creates a
 * temporary --user-data-dir and removes it on close (it refuses a --user-data-dir argument).
 */
export async function launchChromium(): Promise<Browser> {
  return await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS], timeout: 30_000 });
}

/** test-artifacts/<name> at the repository root (its folder created). Kept by CI as an artifact. */
export async function artifactPath(name: string): Promise<string> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const path = resolve(root, 'test-artifacts', name);
  await mkdir(dirname(path), { recursive: true });
  return path;
}
