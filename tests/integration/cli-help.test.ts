// `--help` on every command and subcommand (issue 37 item 6): the usage on stdout and exit 0, touching
// nothing; a command line a command cannot read: what is wrong and the usage on stderr, exit 2.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run.ts';

const COMMANDS: Array<[script: string, args: string[]]> = [
  ['build.ts', []],
  ['validate.ts', []],
  ['preview.ts', []],
  ['dev.ts', []],
  ['serve.ts', []],
  ['mcp.ts', []],
  ['bench.ts', []],
  ['bench-search.ts', []],
  ['webhook.ts', []],
  ...['sign', 'verify', 'check-url', 'deliver'].map((sub): [string, string[]] => ['webhook.ts', [sub]]),
  ['admin.ts', []],
  ...['org create', 'org list', 'key create', 'key list', 'key revoke', 'secret reveal', 'secret rotate']
    .concat(['garment list', 'garment adopt', 'garment grant', 'garment transfer', 'garment release'])
    .map((sub): [string, string[]] => ['admin.ts', sub.split(' ')]),
];

describe('--help', () => {
  it.each(COMMANDS)('%s %j --help prints the usage and exits 0, doing nothing else', (script, args) => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'help-')), 'data');
    const extra = script === 'admin.ts' ? ['--data', dataDir] : [];
    const result = runCli(script, [...args, '--help', ...extra]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage:/);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('a command line that cannot be read', () => {
  it.each([
    ['webhook.ts', ['--no-such-option']],
    ['webhook.ts', ['sign', '--no-such-option']],
    ['build.ts', ['--no-such-option']],
    ['preview.ts', ['--no-such-option']],
    ['dev.ts', ['--no-such-option']],
    ['dev.ts', ['--port', 'any']],
    ['dev.ts', ['--records', 'no-such-folder']],
  ])('%s %j says what is wrong with the usage, and exits 2', (script, args) => {
    const result = runCli(script, args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/usage:/);
    expect(result.stdout).toBe('');
  });
});
