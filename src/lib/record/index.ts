export {
  checkRecords,
  checkRecordFile,
  checkRecordBytes,
  fileCheckOf,
  listRecordFiles,
  MissingPathError,
  recordCheckOf,
  statRecordFiles,
  type CheckedRecord,
  type CheckOptions,
  type FileCheck,
  type FileStat,
  type RecordCheck,
  type RecordFileResult,
} from './load.ts';
export { checkRecordIntegrity, checkSiteIntegrity, MARKDOWN_MAX_LENGTH, MARKDOWN_MAX_MARKS, textBlocksOf, type RecordFile, type RecordKey } from './integrity.ts';
export { recordSchema, recordValidator, validateRecord } from './validate.ts';
export { formatProblem, type Problem } from './problem.ts';
export { namedRecord, recordFileName } from './file-names.ts';
export * from './types.ts';
