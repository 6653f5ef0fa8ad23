import zlib from "node:zlib";
import sharp from "sharp";

/**
 * Real image files for the image transformation tests and benchmark, made
 * with sharp (libvips) so each is what a camera or an editor would write:
 * plain and CMYK JPEGs, a JPEG whose EXIF orientation turns it, an animated
 * GIF, a decompression bomb (a valid PNG of a few KB that decodes to 100
 * megapixels) and a truncated file.
 */
export async function jpeg(width: number, height: number, options: { quality?: number } = {}): Promise<Buffer> {
  // a gradient with noise, so the JPEG is as large as a photo of that size
  return sharp({
    create: { width, height, channels: 3, background: "#3a7bd5", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: options.quality ?? 85 })
    .toBuffer();
}

export async function png(width: number, height: number, color = "#e4572e"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
}

/** A 200×100 picture stored sideways: EXIF orientation 6 shows it as 100×200. */
export async function orientedJpeg(): Promise<Buffer> {
  const base = await sharp({ create: { width: 200, height: 100, channels: 3, background: "#0a0" } })
    .jpeg()
    .toBuffer();
  return sharp(base).withMetadata({ orientation: 6 }).jpeg().toBuffer();
}

export async function cmykJpeg(width = 120, height = 80): Promise<Buffer> {
  const base = await sharp({ create: { width, height, channels: 3, background: "#c03" } })
    .jpeg()
    .toBuffer();
  return sharp(base).toColourspace("cmyk").jpeg().toBuffer();
}

/** Three 40×30 frames, red, green, blue. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    ["#f00", "#0f0", "#00f"].map((c) =>
      sharp({ create: { width: 40, height: 30, channels: 4, background: c } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif()
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1-bit PNG of `side`×`side` pixels, all black: about 12 KB for 10,000 × 10,000 (100 MP). */
export function bombPng(side = 10_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((Math.ceil(side / 8) + 1) * side); // each row: filter byte 0, then zero bits
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export async function imageSize(bytes: ArrayBuffer | Buffer) {
  const m = await sharp(Buffer.from(bytes as ArrayBuffer)).metadata();
  return { width: m.width, height: m.height, format: m.format, space: m.space, pages: m.pages ?? 1 };
}
