// Content types of static pages and build assets, by file extension (the table is src/routes/content-types.ts).
export { contentTypeOf } from '../routes/content-types.ts';
