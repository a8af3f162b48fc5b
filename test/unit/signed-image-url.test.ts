import { randomBytes } from 'node:crypto';
import { signatureMatches, signText } from '../../infra/crypto/url-signature';
import { imageQuery } from '../../src/http/routes/images';
import { signedImageUrl, signedText, transformQuery } from '../../src/http/signed-image-url';

const file = { workspaceId: 'ws-1', assetId: 'asset-1', version: 3 };

describe('signed image URLs', () => {
  it('signs the transform as parsed, so one rendition has one text whatever the spelling or order of its parameters', () => {
    const spelled = imageQuery.parse({ width: '0320', format: 'webp', enlarge: 'false' });
    const plain = imageQuery.parse({ enlarge: 'false', format: 'webp', width: '320' });
    expect(transformQuery(spelled)).toBe('enlarge=false&format=webp&width=320');
    expect(signedText(file, spelled, 1000)).toBe(signedText(file, plain, 1000));
    expect(signedText(file, spelled, 1000)).toBe('/images/signed/ws-1/asset-1/3\nenlarge=false&format=webp&width=320\n1000');
    expect(signedText(file, {}, 1000)).toBe('/images/signed/ws-1/asset-1/3\n\n1000');
  });

  it('puts the signature after the transform and the expiry in the URL', () => {
    expect(signedImageUrl('https://cms.example.com', file, { width: 320 }, 1000, 'sig')).toBe('https://cms.example.com/images/signed/ws-1/asset-1/3?width=320&expires=1000&signature=sig');
    expect(signedImageUrl('https://cms.example.com', file, {}, 1000, 'sig')).toBe('https://cms.example.com/images/signed/ws-1/asset-1/3?expires=1000&signature=sig');
  });

  it('accepts a signature made with any of the keys, spelled exactly, and nothing else', () => {
    const [current, previous, other] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const text = signedText(file, { width: 320 }, 1000);
    const signature = signText(previous, text);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signatureMatches([current, previous], text, signature)).toBe(true);
    expect(signatureMatches([current, other], text, signature)).toBe(false);
    expect(signatureMatches([], text, signature)).toBe(false);
    expect(signatureMatches([previous], signedText(file, { width: 321 }, 1000), signature)).toBe(false);
    expect(signatureMatches([previous], signedText({ ...file, version: 4 }, { width: 320 }, 1000), signature)).toBe(false);
    expect(signatureMatches([previous], signedText(file, { width: 320 }, 1001), signature)).toBe(false);
    // base64url decoders ignore what follows the 43rd character; the comparison does not.
    expect(signatureMatches([previous], text, `${signature}=`)).toBe(false);
    expect(signatureMatches([previous], text, signature.slice(0, 42))).toBe(false);
  });
});
