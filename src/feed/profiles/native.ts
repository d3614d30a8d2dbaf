/**
 * The `native` profile: columns (or JSON members) named like the write shape's fields, in any
 * case. Images and ExtensionColumn may be JSON or '|'-separated ("a.jpg|b.jpg", "Pool=yes|View=lake").
 */
import { LISTING_FIELD_NAMES } from '../../domain/listing.js';
import { columnRule, type ProfileBuilder } from '../record-mapping.js';

export const buildNativeMapping: ProfileBuilder = (columns) => ({
  rules: LISTING_FIELD_NAMES.map((field) => columnRule(field, columns.optional(field))),
});
