import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/records.ts';
import { runCli } from '../support/run.ts';

const TEE = 'ridgeline-rk6210-heavyweight-tee';
/** Record text that opens a right-to-left override and never closes it (a file name spoofed as `exe.gnp`). */
const SELLER = '\u202Eevil seller';
const COLOUR = '\u202Eevil colour';

// The site joins record text with its own words ("<seller>: 14 of 15 in stock", "<offer>: base price"):
// an override left open would reverse those words too.
describe('record text that leaves a bidirectional override open', { timeout: 120_000 }, () => {
  let out: string;

  beforeAll(() => {
    const work = mkdtempSync(path.join(tmpdir(), 'bidi-'));
    const records = path.join(work, 'records');
    out = path.join(work, 'dist');
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    const file = path.join(records, `${TEE}.svc.json`);
    const record = JSON.parse(readFileSync(file, 'utf8'));
    record.data.provider_listings[0].provider_name = SELLER;
    for (const variant of record.data.provider_variants) variant.raw_color_name = COLOUR;
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    const result = runCli('build.ts', ['--records', records, '--out', out]);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it.each([
    [`garments/${TEE}/svc/index.html`, [SELLER, COLOUR]],
    [`garments/${TEE}/svc.md`, [SELLER, COLOUR]],
    [`garments/${TEE}/index.html`, [SELLER]],
  ])('is closed where it ends in %s, before the words the site puts after it', (file, texts) => {
    const text = readFileSync(path.join(out, file), 'utf8');
    for (const written of texts) {
      const ends = [...text.matchAll(new RegExp(written, 'g'))].map((match) => match.index + written.length);
      expect(ends.length, `${JSON.stringify(written)} in ${file}`).toBeGreaterThan(0);
      for (const end of ends) expect(text.slice(end, end + 20), `after ${JSON.stringify(written)}`).toMatch(/^\u202C/);
    }
  });
});
