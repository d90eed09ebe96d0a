// Vitest's global setup: every temporary folder a test or the processes it starts make goes into one
// folder per run (TMPDIR, which os.tmpdir() reads), removed when the run ends, so runs leave nothing in /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'garment-press-tests-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
