import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway self-signed certificate, valid for localhost, 127.0.0.1, ::1 and hooks.example.com. */
export interface TestCertificate {
  key: Buffer;
  cert: Buffer;
  certPath: string;
}

/** Makes a fresh key and self-signed certificate with the openssl CLI in a temporary directory. */
export function createTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    '/usr/bin/openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=garment-press test receiver',
      '-addext',
      'subjectAltName=DNS:localhost,DNS:hooks.example.com,IP:127.0.0.1,IP:::1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
}
