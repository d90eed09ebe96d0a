import { serveStaticFiles } from '../lib/serve/static-files.ts';
import { portOption, readCommandLine } from './command-line.ts';

const USAGE = `usage: npm run preview [-- --dir dist --port 4321 --host 127.0.0.1]

Serves a built site on loopback as the publish service does: content types, ETag and
Last-Modified, single byte ranges, brotli, zstd or gzip for text (the build's .br and .zst
files where it wrote them), /404.html for a missing address.`;

const options = readCommandLine('preview', USAGE, {
  options: {
    dir: { type: 'string', default: 'dist' },
    port: { type: 'string', default: '4321' },
    host: { type: 'string', default: '127.0.0.1' },
    help: { type: 'boolean', short: 'h' },
  },
}).values;
const port = portOption('preview', USAGE, options.port);
try {
  const { url } = await serveStaticFiles(options.dir, { port, host: options.host });
  process.stdout.write(`serving ${options.dir}/ at ${url}/ (Ctrl+C to stop)\n`);
} catch (error) {
  process.stderr.write(`preview: could not start: ${(error as Error).message}\n`);
  process.exit(1);
}
