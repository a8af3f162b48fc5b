import type { AssetType } from './events';

const DOCUMENT_TYPES = /^(text\/|application\/(pdf|msword|rtf|json|xml|vnd\.openxmlformats-officedocument|vnd\.ms-|vnd\.oasis\.opendocument))/;
const ARCHIVE_TYPES = /^application\/(zip|gzip|x-tar|x-7z-compressed|vnd\.rar|x-rar-compressed|x-bzip2|x-xz|zstd)$/;

/** The asset type of a media type. */
export function assetTypeOf(contentType: string): AssetType {
  if (contentType.startsWith('image/')) return 'Image';
  if (contentType.startsWith('video/')) return 'Video';
  if (contentType.startsWith('audio/')) return 'Audio';
  if (ARCHIVE_TYPES.test(contentType)) return 'Archive';
  if (DOCUMENT_TYPES.test(contentType)) return 'Document';
  return 'Other';
}
