/** Ends the program quietly when whatever reads its output stops reading (`npm run validate | head`). */
export function stopQuietlyWhenOutputCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}
