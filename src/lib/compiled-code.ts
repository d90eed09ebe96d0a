import { enableCompileCache } from 'node:module';

/**
 * Turns on Node's compile cache for this process and the threads and processes it starts: a build
 * loads the same few hundred modules (Astro's, and its own TypeScript with the types stripped) in
 * each of its threads, every time. Kept in Node's default folder, or the one `NODE_COMPILE_CACHE`
 * names; an entry is used only for the file content it was made from.
 */
export function shareCompiledCode(): void {
  const { directory } = enableCompileCache();
  // Threads and child processes turn it on from the environment they start with.
  if (directory) process.env.NODE_COMPILE_CACHE = directory;
}
