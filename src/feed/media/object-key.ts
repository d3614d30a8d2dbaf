/**
 * Content-addressed object keys: the lowercase sha256 hex of a photo's bytes and an extension from
 * its content type, so the same photo used by many listings or chatbots is stored once.
 */

/** Content type (without parameters) → extension; an image type not named here keeps its subtype. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/tiff': 'tif',
  'image/bmp': 'bmp',
  'image/svg+xml': 'svg',
};

/** The media type of a Content-Type header, lowercased and without parameters ('' when absent). */
export function mediaTypeOf(header: string | readonly string[] | undefined): string {
  const value = typeof header === 'string' ? header : (header?.[0] ?? '');
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether a media type is an image (what a listing's Images may hold). */
export function isImageType(type: string): boolean {
  return /^image\/[a-z0-9.+-]+$/.test(type);
}

/** The extension of an image type: jpg for image/jpeg, the subtype's letters otherwise. */
export function extensionOf(type: string): string {
  return EXTENSIONS[type] ?? (type.slice('image/'.length).replace(/[^a-z0-9]/g, '') || 'img');
}

/** The object key of a photo: `<sha256 hex>.<extension>`. */
export function objectKey(sha256Hex: string, type: string): string {
  return `${sha256Hex.toLowerCase()}.${extensionOf(type)}`;
}

const KEY = /^[0-9a-f]{64}\.[a-z0-9]{1,8}$/;

/** Whether a name is an object key this tool made (gc removes nothing else). */
export function isObjectKey(name: string): boolean {
  return KEY.test(name);
}

/** The public address of an object: `<base>/<key>` (one slash between, whatever the base ends with). */
export function hostedUrl(baseUrl: string, key: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${key}`;
}

/** The content type to serve an object key with (a web server over a file store): the first type its extension comes from. */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  const named = Object.entries(EXTENSIONS).find(([, ext]) => ext === extension)?.[0];
  return named ?? (extension === 'img' ? 'application/octet-stream' : `image/${extension}`);
}
