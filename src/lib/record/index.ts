export {
  checkFileBytes,
  checkRecordBytes,
  fileCheckOf,
  recordFromBytes,
  unreadableFileCheck,
  type CheckedRecord,
  type FileCheck,
  type FileStat,
  type RecordFileResult,
} from './check-record.ts';
export {
  checkRecords,
  listRecordFiles,
  MissingPathError,
  recordCheckOf,
  statRecordFiles,
  type CheckOptions,
  type RecordCheck,
} from './load.ts';
export {
  checkRecordIntegrity,
  checkSiteIntegrity,
  MARKDOWN_MAX_LENGTH,
  MARKDOWN_MAX_MARKS,
  type RecordFile,
  type RecordKey,
} from './integrity.ts';
export { readingOrder, SECTION_ORDER, type ReadingBlock, type ReadingPart } from './reading-order.ts';
export { recordSchema, recordValidator, validateRecord } from './validate.ts';
export { formatProblem, type Problem } from './problem.ts';
export { namedRecord, recordFileName, REVISIONS_FOLDER } from './file-names.ts';
export * from './types.ts';
