import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const CLI = join(ROOT, 'src/cli/webhook.ts');
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
// Computed independently with Python's hmac over "1714000000." + the file's bytes.
const BOM_CRLF_HEADER = 't=1714000000,v1=341f655d1c98bff3037a99006e4d27ef0e9a81163e76a1c625f6c4ab9191da10';

let dir: string;
let bodyFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'webhook-cli-'));
  bodyFile = join(dir, 'body.json');
  // A BOM, CRLF line endings, unicode and trailing whitespace: all must be signed as they are.
  writeFileSync(bodyFile, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{\r\n  "stage": "Fertig ✓"\r\n}  \n', 'utf8')]));
});

function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = execFile(NODE, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' }, (_error, stdout, stderr) =>
      resolveRun({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe.concurrent('webhook sign', () => {
  it("prints only the signature header for the body file's exact bytes", async () => {
    expect(await run('sign', '--secret', SECRET, '--timestamp', '1714000000', '--body-file', bodyFile)).toEqual({
      code: 0,
      stdout: `${BOM_CRLF_HEADER}\n`,
      stderr: '',
    });
  });
});

describe.concurrent('webhook verify', () => {
  const verify = (...extra: string[]) => run('verify', '--body-file', bodyFile, '--now', '1714000100', ...extra);

  it('accepts a matching signature', async () => {
    expect(await verify('--secret', SECRET, '--header', BOM_CRLF_HEADER)).toEqual({ code: 0, stdout: 'accepted\n', stderr: '' });
  });

  it('accepts when the second of two secrets matches', async () => {
    expect((await verify('--secret', 'whsec_new', '--secret', SECRET, '--header', BOM_CRLF_HEADER)).stdout).toBe('accepted\n');
  });

  it.each([
    [
      'a wrong secret',
      ['--secret', 'whsec_wrong', '--header', BOM_CRLF_HEADER],
      'rejected: no v1 signature matches the raw body with the given secret',
    ],
    [
      'an old timestamp',
      ['--secret', SECRET, '--header', BOM_CRLF_HEADER, '--tolerance', '60'],
      'rejected: timestamp too old: signed 100 s ago, tolerance is 60 s',
    ],
    ['a missing v1', ['--secret', SECRET, '--header', 't=1714000000'], 'rejected: signature header has no v1'],
    [
      'uppercase hex',
      ['--secret', SECRET, '--header', BOM_CRLF_HEADER.toUpperCase().replace('T=', 't=').replace('V1=', 'v1=')],
      'rejected: v1 must be lowercase hex',
    ],
  ])('rejects %s with exit code 1', async (_name, args, line) => {
    expect(await verify(...args)).toEqual({ code: 1, stdout: `${line}\n`, stderr: '' });
  });

  it('rejects a future timestamp when --now is earlier than t', async () => {
    const result = await run('verify', '--body-file', bodyFile, '--now', '1713999000', '--secret', SECRET, '--header', BOM_CRLF_HEADER);
    expect(result).toEqual({ code: 1, stdout: 'rejected: timestamp in the future: signed 1000 s ahead, tolerance is 300 s\n', stderr: '' });
  });
});

describe.concurrent('webhook check-url', () => {
  it.each([
    [['https://hooks.example.com/hook', '--resolve', 'hooks.example.com=93.184.215.14'], 0, 'allowed'],
    [['https://hooks.example.com/hook', '--resolve', 'HOOKS.example.com.=93.184.215.14,2606:4700::1111'], 0, 'allowed'],
    [
      ['https://hooks.example.com/hook', '--resolve', 'hooks.example.com=93.184.215.14,192.168.1.20'],
      1,
      'refused: host hooks.example.com resolves to 192.168.1.20, which is private',
    ],
    [['https://0x7f.1/hook'], 1, 'refused: address 127.0.0.1 is loopback'],
    [['http://hooks.example.com/hook'], 1, 'refused: scheme must be https, got http'],
    [['https://metadata.INTERNAL./'], 1, 'refused: host metadata.internal is a private name (.internal)'],
    [
      ['https://hooks.example.invalid/hook'],
      0,
      'allowed, though could not resolve host hooks.example.invalid (ENOTFOUND) now: each delivery resolves it again and connects only to public addresses',
    ],
  ])('check-url %j exits %i with %s', async (args, code, line) => {
    expect(await run('check-url', ...args)).toEqual({ code, stdout: `${line}\n`, stderr: '' });
  });
});

describe.concurrent('webhook usage errors', () => {
  it.each([
    ['no command', []],
    ['an unknown command', ['send']],
    ['sign without --secret', ['sign', '--timestamp', '1', '--body-file', '/dev/null']],
    ['a fractional --timestamp', ['sign', '--secret', SECRET, '--timestamp', '1.5', '--body-file', '/dev/null']],
    ['an unknown option', ['sign', '--secret', SECRET, '--timestamp', '1', '--body-file', '/dev/null', '--verbose']],
    ['a missing body file', ['sign', '--secret', SECRET, '--timestamp', '1', '--body-file', '/nonexistent/body.json']],
    ['verify without --header', ['verify', '--secret', SECRET, '--body-file', '/dev/null']],
    ['a non-numeric --now', ['verify', '--secret', SECRET, '--header', 't=1,v1=a', '--body-file', '/dev/null', '--now', 'soon']],
    ['check-url without a URL', ['check-url']],
    ['a --resolve without an address', ['check-url', 'https://a.example.com/', '--resolve', 'a.example.com']],
    ['a --resolve with a name for an address', ['check-url', 'https://a.example.com/', '--resolve', 'a.example.com=b.example.com']],
  ])('exits 2 with a usage message for %s', async (_name, args) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^webhook: .+\nusage:\n/);
  });
});
