import { checkRecords, formatProblem, MissingPathError } from '../lib/record/index.ts';
import { counted } from '../lib/counted.ts';
import { readCommandLine, usageError } from './command-line.ts';
import { failureMessage } from './failure-message.ts';
import { stopQuietlyWhenOutputCloses } from './output-closed.ts';

const USAGE = `usage: npm run validate [-- [--json] [path...]]

Validates garment-access/2.4.0 records: every .json file under the given files
and folders (default: records/). Exit 0 when valid (warnings allowed), 1 when
any record is invalid, 2 on bad usage.

  --json   print a machine-readable report instead of text`;

const args = readCommandLine('validate', USAGE, {
  allowPositionals: true,
  options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});

const paths = args.positionals.length > 0 ? args.positionals : ['records'];
stopQuietlyWhenOutputCloses();
const check = await checkRecords(paths).catch((error: unknown) => {
  if (error instanceof MissingPathError) usageError('validate', USAGE, error.message);
  process.stderr.write(`validate: ${failureMessage(error)}\n`);
  process.exit(1);
});
// A folder without records (a mistyped one, say) is no valid site.
const noFiles = check.files.length === 0;
if (noFiles) process.stderr.write(`validate: no record files (*.json) in ${paths.join(', ')}\n`);
const errors = check.problems.filter((p) => p.severity === 'error').length;
const warnings = check.problems.length - errors;
const summary = { files: check.files.length, records: check.records.length, errors, warnings };

if (args.values.json) {
  process.stdout.write(`${JSON.stringify({ valid: errors === 0 && !noFiles, ...summary, problems: check.problems }, null, 2)}\n`);
} else {
  for (const problem of check.problems) process.stdout.write(`${formatProblem(problem)}\n`);
  process.stdout.write(
    `${counted(summary.files, 'file')}, ${counted(summary.records, 'valid record')}, ${counted(errors, 'error')}, ${counted(warnings, 'warning')}\n`,
  );
}
process.exitCode = errors > 0 || noFiles ? 1 : 0;
