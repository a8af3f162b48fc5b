import type { ImageTransform } from './routes/images';

/** The asset file a signed image URL names: a new upload is a new version, so a new URL. */
export interface SignedImageFile {
  readonly workspaceId: string;
  readonly assetId: string;
  readonly version: number;
}

export const signedImagePath = (file: SignedImageFile) => `/images/signed/${encodeURIComponent(file.workspaceId)}/${encodeURIComponent(file.assetId)}/${file.version}`;

/** The transform parameters in one order, each value spelled one way (`width=0320` is `width=320`): the same rendition gives the same text. */
export function transformQuery(transform: ImageTransform): string {
  const { enlarge, format, height, quality, width } = transform;
  return Object.entries({ enlarge, format, height, quality, width })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
}

/** What the signature covers: the path (workspace, asset, file version), the normalized transform and the expiry (Unix seconds). */
export function signedText(file: SignedImageFile, transform: ImageTransform, expires: number): string {
  return `${signedImagePath(file)}\n${transformQuery(transform)}\n${expires}`;
}

/** The URL a page can put in `<img src>`. */
export function signedImageUrl(baseUrl: string, file: SignedImageFile, transform: ImageTransform, expires: number, signature: string): string {
  const query = transformQuery(transform);
  return `${baseUrl}${signedImagePath(file)}?${query ? `${query}&` : ''}expires=${expires}&signature=${signature}`;
}
