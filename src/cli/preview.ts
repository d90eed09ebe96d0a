import { parseArgs } from 'node:util';
import { serveStaticFiles } from '../lib/serve/static-files.ts';

const { values } = parseArgs({ options: { dir: { type: 'string', default: 'dist' }, port: { type: 'string', default: '4321' }, host: { type: 'string', default: '127.0.0.1' } } });
const { url } = await serveStaticFiles(values.dir, { port: Number(values.port), host: values.host });
process.stdout.write(`serving ${values.dir}/ at ${url}/ (Ctrl+C to stop)\n`);
