export { checkRecords, checkRecordFile, listRecordFiles, MissingPathError, type CheckedRecord, type CheckOptions, type FileCheck, type RecordCheck } from './load.ts';
export { checkRecordIntegrity, checkSiteIntegrity, textBlocksOf, type RecordFile, type RecordKey } from './integrity.ts';
export { recordSchema, recordValidator, validateRecord } from './validate.ts';
export { formatProblem, type Problem } from './problem.ts';
export * from './types.ts';
