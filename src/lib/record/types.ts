import type {
  GarmentResearchSnapshotRecordGarmentAccess240 as RecordShape,
  CommercePage,
  SvcData,
  TechData,
  TechnicalPage,
} from './schema-types.ts';

export type {
  Claim,
  Conflict,
  Decision,
  Gap,
  Image,
  Catalog,
  Links,
  Source,
  TextBlock,
  InterpretationTextBlock,
  CommercePage,
  TechnicalPage,
  CommerceSections,
  TechnicalSections,
  SvcData,
  TechData,
  Research,
} from './schema-types.ts';

export type { Projection } from './projections.ts';

type RecordBase = Omit<RecordShape, 'projection' | 'data' | 'page'>;

/** A valid record of the commerce projection. */
export type CommerceRecord = RecordBase & { projection: 'svc'; data: SvcData; page: CommercePage };

/** A valid record of the technical projection. */
export type TechnicalRecord = RecordBase & { projection: 'tech'; data: TechData; page: TechnicalPage };

/** A record that passed the schema: the projection decides the shape of `data` and `page`. */
export type GarmentRecord = CommerceRecord | TechnicalRecord;

/** The schema_version every record carries. */
export const SCHEMA_VERSION = 'garment-access/2.4.0';
