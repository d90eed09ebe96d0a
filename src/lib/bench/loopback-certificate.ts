import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A certificate for 127.0.0.1 signed by itself, made with openssl. */
export interface Certificate {
  key: Buffer;
  cert: Buffer;
  certFile: string;
}

/** Makes a self-signed certificate for 127.0.0.1 in `dir`. */
export function makeCertificate(dir: string): Certificate {
  const keyFile = path.join(dir, 'receiver-key.pem');
  const certFile = path.join(dir, 'receiver-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile };
}
