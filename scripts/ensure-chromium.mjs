// Browser tests use Debian's Chromium (no browser download is possible or wanted).
// Installs it with apt-get when it is missing and we are root; otherwise says what to do.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  if (process.getuid?.() === 0) {
    console.log(`Chromium not found at ${path}: installing Debian's chromium package...`);
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: 'inherit',
      shell: '/bin/bash',
    });
  } else {
    console.error(`Chromium not found at ${path}. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
}
