import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * A command's options and arguments as `parseArgs` reads them (`config` names a `help` option):
 * `--help` prints the usage and exits 0; options it cannot read are said, with the usage, and exit 2.
 */
export function readCommandLine<T extends ParseArgsConfig>(command: string, usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    return usageError(command, usage, (error as Error).message);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed;
}

/** Says what is wrong with a command line, then the usage, and exits 2. */
export function usageError(command: string, usage: string, message: string): never {
  process.stderr.write(`${command}: ${message}\n\n${usage}\n`);
  process.exit(2);
}

/** A `--port` value as a number from 0 (the system chooses) to 65535; anything else is a usage error (exit 2). */
export function portOption(command: string, usage: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    usageError(command, usage, `--port must be a whole number from 0 to 65535, got ${value}`);
  return port;
}
