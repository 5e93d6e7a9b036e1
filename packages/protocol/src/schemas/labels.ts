import { z } from 'zod';
import { rowIdSchema } from './common.js';
import { DEFAULT_LABEL_COLOR, DEFAULT_LABEL_SEARCH_FIELD, LABEL_SEARCH_FIELDS } from '../constants.js';

/** A label: a message keyword plus a saved search (SPEC §3 Label). */
export const labelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  search_field: z.enum(LABEL_SEARCH_FIELDS),
  search_content: z.string(),
  folder_id: z.number().int().nullable(),
});
export type Label = z.infer<typeof labelSchema>;

const hexColour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'invalid_request_params');
// Names and search text are trimmed; an empty one is refused by the service with name_not_indicated
// (name) or invalid_request_params (search_content), so the client gets the SPEC's code, not a zod one.
const labelFields = {
  name: z.string().max(100),
  color: hexColour,
  search_field: z.enum(LABEL_SEARCH_FIELDS),
  search_content: z.string().max(500),
  folder_id: rowIdSchema.nullable(),
};

/** POST labels: colour defaults to #e66465, search_field to body. */
export const labelCreateSchema = z.object({
  label: z.object({
    name: labelFields.name.optional(),
    color: labelFields.color.default(DEFAULT_LABEL_COLOR),
    search_field: labelFields.search_field.default(DEFAULT_LABEL_SEARCH_FIELD),
    search_content: labelFields.search_content.optional(),
    folder_id: labelFields.folder_id.optional(),
  }),
});
export type LabelCreateRequest = z.input<typeof labelCreateSchema>;

/** POST labels/{id}: only the fields given change. */
export const labelUpdateSchema = z.object({
  label: z.object({
    name: labelFields.name.optional(),
    color: labelFields.color.optional(),
    search_field: labelFields.search_field.optional(),
    search_content: labelFields.search_content.optional(),
    folder_id: labelFields.folder_id.optional(),
  }),
});
export type LabelUpdateRequest = z.input<typeof labelUpdateSchema>;

export const labelResponseSchema = z.object({ label: labelSchema });
export const labelsResponseSchema = z.object({ labels: z.array(labelSchema) });
export type LabelsResponse = z.infer<typeof labelsResponseSchema>;
