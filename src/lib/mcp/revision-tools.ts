// garments.list_revisions: a record's every revision, as its history lists them (src/lib/revisions/).
import type { Projection } from '../record/index.ts';
import type { PublishedSite } from './published-site.ts';
import { toolError, type Tool, type ToolDefinition } from './tool-call.ts';
import { projectionArgument, slugArgument, textField } from './tool-definitions.ts';

/** garments.list_revisions */
export const LIST_REVISIONS: ToolDefinition = {
  name: 'garments.list_revisions',
  title: "List a garment record's revisions",
  description: [
    'Lists every revision the site published of a garment record, newest first: its number, record_revision, published_at,',
    "one line saying what changed, the page saying it in full, and the revision's JSON as published then.",
    'Read one with garments.get_record and its revision number.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['slug', 'projection'],
    properties: { slug: slugArgument, projection: projectionArgument },
  },
  outputSchema: {
    type: 'object',
    required: ['slug', 'projection', 'count', 'revisions'],
    properties: {
      slug: textField("The garment's slug."),
      projection: { type: 'string', enum: ['svc', 'tech'] },
      count: { type: 'integer', minimum: 1, description: 'How many revisions the site keeps; the last is the record published now.' },
      revisions: {
        type: 'array',
        items: {
          type: 'object',
          required: ['number', 'record_revision', 'published_at', 'summary', 'changes', 'json'],
          properties: {
            number: { type: 'integer', minimum: 1 },
            record_revision: { type: ['string', 'null'] },
            published_at: { type: ['string', 'null'] },
            summary: textField('What changed since the revision before, in one line.'),
            changes: textField('The page saying what changed, in words.'),
            json: textField('The revision as published then: its permalink, also its MCP resource URI.'),
          },
        },
      },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'anyone',
};

/** The tools reading a record's revisions. */
export function revisionTools(published: PublishedSite): Tool[] {
  return [
    {
      ...LIST_REVISIONS,
      async run(args) {
        const slug = args.slug as string;
        const projection = args.projection as Projection;
        const history = await published.readRevisions(slug, projection);
        if (history === undefined)
          return toolError('not_found', `no published record ${slug} (${projection}); find records with garments.search or garments.list`, [
            { pointer: '/slug', message: `no ${projection} record of a garment "${slug}" is published` },
          ]);
        return { ok: true, result: history };
      },
    },
  ];
}
