import { Readable } from 'node:stream';
import sharp from 'sharp';
import {
  ImageTooLargeError,
  MAX_DIMENSION,
  MAX_OUTPUT_PIXELS,
  NotAnImageError,
  outputFormat,
  probeImage,
  renderImage,
  renderPixels,
  renditionKey,
  type RenditionRequest,
  renditionSize,
  RenditionTooLargeError,
} from '../../infra/images/renderer';

/** Noise, so that encoder quality shows in the byte size. */
const noisy = (width: number, height: number, channels: 3 | 4) =>
  sharp({ create: { width, height, channels, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });

async function render(input: Buffer, contentType: string, request: RenditionRequest) {
  const { stream, contentType: type } = await renderImage(Readable.from(input), contentType, request, renderPixels);
  const bytes = Buffer.concat(await stream.toArray());
  return { type, bytes, metadata: await sharp(bytes).metadata() };
}

describe('image renderer', () => {
  let jpeg: Buffer; // 400x200
  let pngWithAlpha: Buffer; // 300x150, left half fully transparent
  let rotated: Buffer; // stored 400x200, EXIF orientation 6: displayed 200x400
  const text = Buffer.from('just some text, not an image\n');

  beforeAll(async () => {
    jpeg = await noisy(400, 200, 3).jpeg().toBuffer();
    const transparent = await sharp({ create: { width: 150, height: 150, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    pngWithAlpha = await sharp({ create: { width: 300, height: 150, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 1 } } })
      .composite([{ input: transparent, left: 0, top: 0, blend: 'source' }])
      .png()
      .toBuffer();
    rotated = await noisy(400, 200, 3).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  });

  describe('sizing', () => {
    it('keeps the aspect ratio with only a width', async () => {
      const { metadata } = await render(jpeg, 'image/jpeg', { width: 200 });
      expect([metadata.width, metadata.height]).toEqual([200, 100]);
    });

    it('keeps the aspect ratio with only a height', async () => {
      const { metadata } = await render(jpeg, 'image/jpeg', { height: 50 });
      expect([metadata.width, metadata.height]).toEqual([100, 50]);
    });

    it('fits inside the box with both sides, without crop or distortion', async () => {
      const square = await render(jpeg, 'image/jpeg', { width: 100, height: 100 });
      expect([square.metadata.width, square.metadata.height]).toEqual([100, 50]);
      const wide = await render(jpeg, 'image/jpeg', { width: 300, height: 40 });
      expect([wide.metadata.width, wide.metadata.height]).toEqual([80, 40]);
    });

    it('never enlarges unless asked to', async () => {
      const kept = await render(jpeg, 'image/jpeg', { width: 800 });
      expect([kept.metadata.width, kept.metadata.height]).toEqual([400, 200]);
      const enlarged = await render(jpeg, 'image/jpeg', { width: 800, enlarge: true });
      expect([enlarged.metadata.width, enlarged.metadata.height]).toEqual([800, 400]);
    });

    it('refuses sides and qualities out of range before reading the source', async () => {
      for (const request of [{ width: 0 }, { height: MAX_DIMENSION + 1 }, { width: 1.5 }, { quality: 0 }, { quality: 101 }]) {
        await expect(renderImage(Readable.from(jpeg), 'image/jpeg', request, renderPixels)).rejects.toThrow(RangeError);
        expect(() => renditionKey('image/jpeg', request)).toThrow(RangeError);
      }
    });
  });

  describe('encoding', () => {
    it('makes smaller JPEGs at lower quality', async () => {
      const low = await render(jpeg, 'image/jpeg', { quality: 10 });
      const high = await render(jpeg, 'image/jpeg', { quality: 90 });
      expect(low.bytes.length).toBeLessThan(high.bytes.length);
    });

    it('auto-rotates by EXIF orientation and strips metadata', async () => {
      const { metadata } = await render(rotated, 'image/jpeg', { width: 100 });
      expect([metadata.width, metadata.height]).toEqual([100, 200]);
      expect(metadata.orientation).toBeUndefined();
      expect(metadata.exif).toBeUndefined();
    });

    it('keeps a PNG source a PNG, alpha included', async () => {
      const { type, metadata } = await render(pngWithAlpha, 'image/png', { width: 100 });
      expect(type).toBe('image/png');
      expect(metadata.format).toBe('png');
      expect(metadata.hasAlpha).toBe(true);
    });

    it('flattens transparency onto white for JPEG output', async () => {
      const { bytes, type } = await render(pngWithAlpha, 'image/png', { format: 'jpeg' });
      expect(type).toBe('image/jpeg');
      const { data } = await sharp(bytes).extract({ left: 10, top: 10, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
      expect([...data].every((channel) => channel > 245)).toBe(true);
    });
  });

  describe('format negotiation', () => {
    it.each([
      ['image/avif,image/webp,*/*', 'image/avif', 'heif'],
      ['image/webp,*/*', 'image/webp', 'webp'],
      ['*/*', 'image/jpeg', 'jpeg'],
    ])('Accept %s on a JPEG gives %s', async (accept, contentType, decoder) => {
      const { type, metadata } = await render(jpeg, 'image/jpeg', { width: 100, accept });
      expect(type).toBe(contentType);
      expect(metadata.format).toBe(decoder);
    });

    it('lets an explicit format win over Accept', async () => {
      const { type, metadata } = await render(jpeg, 'image/jpeg', { width: 100, format: 'png', accept: 'image/avif,image/webp' });
      expect(type).toBe('image/png');
      expect(metadata.format).toBe('png');
    });

    it('renders an unknown source type as PNG', async () => {
      const { type, metadata } = await render(jpeg, 'application/octet-stream', { width: 100 });
      expect(type).toBe('image/png');
      expect(metadata.format).toBe('png');
    });

    it('ignores q=0 types, wildcards and content-type parameters', () => {
      expect(outputFormat('image/jpeg', { accept: 'image/avif;q=0, image/webp;q=0.5' })).toBe('webp');
      expect(outputFormat('image/jpeg', { accept: 'image/*' })).toBe('jpeg');
      expect(outputFormat('IMAGE/WEBP; charset=binary', {})).toBe('webp');
      expect(outputFormat('image/gif', {})).toBe('png');
    });
  });

  describe('renditionKey', () => {
    it('is equal for equal effective parameters', () => {
      const key = renditionKey('image/jpeg', { width: 200 });
      expect(renditionKey('image/jpeg', { width: 200, enlarge: false })).toBe(key);
      expect(renditionKey('image/jpeg', { width: 200, accept: '*/*' })).toBe(key);
      expect(renditionKey('image/png', { width: 200, format: 'jpeg' })).toBe(key);
      expect(renditionKey('image/png', { quality: 50 })).toBe(renditionKey('image/png', {}));
      expect(renditionKey('image/jpeg', { enlarge: true })).toBe(renditionKey('image/jpeg', {}));
    });

    it('differs when any effective parameter differs', () => {
      const keys = [
        renditionKey('image/jpeg', { width: 200 }),
        renditionKey('image/jpeg', { height: 200 }),
        renditionKey('image/jpeg', { width: 200, quality: 80 }),
        renditionKey('image/jpeg', { width: 200, enlarge: true }),
        renditionKey('image/jpeg', { width: 200, accept: 'image/webp' }),
        renditionKey('image/jpeg', { width: 200, accept: 'image/avif,image/webp' }),
        renditionKey('image/png', { width: 200 }),
      ];
      expect(new Set(keys).size).toBe(keys.length);
    });
  });

  describe('probeImage', () => {
    it('gives the displayed size and format of an image', async () => {
      expect(await probeImage(Readable.from(jpeg))).toEqual({ width: 400, height: 200, format: 'jpeg' });
      expect(await probeImage(Readable.from(rotated))).toEqual({ width: 200, height: 400, format: 'jpeg' });
      const avif = await sharp(jpeg).avif().toBuffer();
      expect(await probeImage(Readable.from(avif))).toEqual({ width: 400, height: 200, format: 'avif' });
    });

    it('gives null for a file that is not an image', async () => {
      expect(await probeImage(Readable.from(text))).toBeNull();
      expect(await probeImage(Readable.from(Buffer.alloc(0)))).toBeNull();
    });
  });

  describe('errors', () => {
    it('refuses a text file as not an image', async () => {
      await expect(renderImage(Readable.from(text), 'image/jpeg', { width: 100 }, renderPixels)).rejects.toThrow(NotAnImageError);
      await expect(renderImage(Readable.from(Buffer.alloc(0)), 'image/png', {}, renderPixels)).rejects.toThrow(NotAnImageError);
    });

    it('refuses a source over the pixel limit', async () => {
      // A solid 10001x10001 image is about 100 kB of PNG: the kind of bomb the guard is for.
      const bomb = await sharp({ create: { width: 10_001, height: 10_001, channels: 3, background: '#000' } })
        .toColourspace('b-w')
        .png()
        .toBuffer();
      await expect(renderImage(Readable.from(bomb), 'image/png', { width: 100 }, renderPixels)).rejects.toThrow(ImageTooLargeError);
    });

    it('refuses a rendition over the output pixel cap from the header, naming the sides asked', async () => {
      const small = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#000' } }).png().toBuffer();
      const enlarged = renderImage(Readable.from(small), 'image/png', { width: 8000, enlarge: true, format: 'avif' }, renderPixels);
      await expect(enlarged).rejects.toThrow(RenditionTooLargeError);
      await expect(enlarged).rejects.toMatchObject({ width: 8000, height: 8000, fields: ['width'] });
      // Unresized, a large original is too large a rendition: both sides may be asked smaller.
      const large = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#000' } }).toColourspace('b-w').png().toBuffer();
      await expect(renderImage(Readable.from(large), 'image/png', { format: 'jpeg' }, renderPixels)).rejects.toMatchObject({ width: 5000, height: 4000, fields: ['width', 'height'] });
      const withinCap = await render(large, 'image/png', { width: 4000, format: 'jpeg' });
      expect([withinCap.metadata.width, withinCap.metadata.height]).toEqual([4000, 3200]);
      expect(4000 * 3200).toBeLessThanOrEqual(MAX_OUTPUT_PIXELS);
    });

    it('computes the size sharp gives a rendition', () => {
      const source = { width: 400, height: 200 };
      expect(renditionSize(source, {})).toEqual({ width: 400, height: 200 });
      expect(renditionSize(source, { width: 100 })).toEqual({ width: 100, height: 50 });
      expect(renditionSize(source, { height: 50 })).toEqual({ width: 100, height: 50 });
      expect(renditionSize(source, { width: 300, height: 40 })).toEqual({ width: 80, height: 40 });
      expect(renditionSize(source, { width: 800 })).toEqual({ width: 400, height: 200 });
      expect(renditionSize(source, { width: 800, enlarge: true })).toEqual({ width: 800, height: 400 });
      expect(renditionSize({ width: 3, height: 1000 }, { height: 10 })).toEqual({ width: 1, height: 10 });
    });

    it('passes on a failing source stream as it is', async () => {
      const failing = new Readable({ read() { this.destroy(new Error('storage went away')); } });
      await expect(renderImage(failing, 'image/jpeg', {}, renderPixels)).rejects.toThrow('storage went away');
    });
  });
});
