/**
 * How a feed source and a RESO budget are written on the command line and shown back (the feed
 * adapter's own rules, src/feed/feed-source.ts and src/feed/reso-api/budget-spec.ts), named here
 * so that cli parses and prints them through sync rather than reaching into the adapter.
 */
export { displaySource, isUrl, unstorableSourceReason } from '../feed/feed-source.js';
export { parseFeedBudget } from '../feed/reso-api/budget-spec.js';
