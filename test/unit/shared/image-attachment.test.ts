import * as assert from 'node:assert/strict';
import { base64Bytes, ImageAttachmentSchema, MAX_IMAGE_BYTES, sniffImageType } from '../../../src/shared/image-attachment';
import { WebviewToExtensionSchema } from '../../../src/shared/protocol';
import { makePng, pngAttachment } from '../../helpers/png';

const THUMB = `data:image/png;base64,${makePng(4, 4, () => [0, 0, 0]).toString('base64')}`;

describe('image attachments at the webview boundary', () => {
  it('accepts a real PNG and counts its bytes', () => {
    const image = pngAttachment();
    assert.equal(ImageAttachmentSchema.safeParse(image).success, true);
    assert.equal(base64Bytes(image.data), Buffer.from(image.data, 'base64').length);
    assert.equal(sniffImageType(image.data), 'image/png');
  });

  it('knows JPEG, GIF and WebP by their first bytes', () => {
    assert.equal(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).toString('base64')), 'image/jpeg');
    assert.equal(sniffImageType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64')), 'image/gif');
    assert.equal(sniffImageType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1').toString('base64')), 'image/webp');
  });

  it('refuses other types, data that is not what it claims, and images over 5 MB', () => {
    const png = pngAttachment();
    assert.equal(ImageAttachmentSchema.safeParse({ ...png, mediaType: 'image/svg+xml' }).success, false, 'SVG is not allowed');
    assert.equal(ImageAttachmentSchema.safeParse({ ...png, mediaType: 'image/jpeg' }).success, false, 'a PNG declared as JPEG');
    const text = Buffer.from('<html>not an image</html>').toString('base64');
    assert.equal(ImageAttachmentSchema.safeParse({ mediaType: 'image/png', data: text }).success, false);
    const huge = Buffer.concat([Buffer.from(png.data, 'base64'), Buffer.alloc(MAX_IMAGE_BYTES)]).toString('base64');
    const result = ImageAttachmentSchema.safeParse({ mediaType: 'image/png', data: huge });
    assert.equal(result.success, false);
    assert.match(result.error!.issues[0]!.message, /at most 5 MB/);
  });

  it('a send message from the view carries images only when each one and its thumbnail check out', () => {
    const ok = WebviewToExtensionSchema.safeParse({ type: 'send', text: 'what is this?', images: [{ image: pngAttachment(), thumbnail: THUMB }] });
    assert.equal(ok.success, true);
    const badThumb = WebviewToExtensionSchema.safeParse({ type: 'send', text: 'x', images: [{ image: pngAttachment(), thumbnail: 'javascript:alert(1)' }] });
    assert.equal(badThumb.success, false);
    const tooMany = WebviewToExtensionSchema.safeParse({ type: 'send', text: 'x', images: Array.from({ length: 6 }, () => ({ image: pngAttachment(), thumbnail: THUMB })) });
    assert.equal(tooMany.success, false);
  });
});
