import { crc32, deflateSync } from 'node:zlib';

/** A real RGB PNG of `width` × `height`, each pixel from `color` (for image attachment tests). */
export function makePng(width: number, height: number, color: (x: number, y: number) => [number, number, number]): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    rows[row] = 0; // filter: none
    for (let x = 0; x < width; x++) rows.set(color(x, y), row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A small test image as an attachment: a 16×16 gradient PNG in base64. */
export function pngAttachment(name = 'screenshot.png'): { mediaType: 'image/png'; data: string; name: string } {
  return { mediaType: 'image/png', data: makePng(16, 16, (x, y) => [x * 16, y * 16, 128]).toString('base64'), name };
}
