import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { StorageError } from "./errors.ts";
import type { FileStore } from "./files.ts";
import {
  CONTENT_TYPES,
  DEFAULT_QUALITY,
  outputFormat,
  SIZE_LIMITS,
  type OutputFormat,
  type TransformOptions,
} from "./transform.ts";

/**
 * Image transformation for `/render/image/…`: what hosted Storage asks of
 * imgproxy, done here with sharp (libvips, the library imgproxy is built on).
 *
 * - Hosted's limits: a source of at most 25 MB and 50 megapixels; beyond them
 *   (and for anything that is not an image libvips reads) a 400 with hosted's
 *   own message. The pixel count is read from the file's header before any
 *   decoding, and sharp's `limitInputPixels` stands behind it, so a small file
 *   that claims huge dimensions (a decompression bomb) is never decoded.
 * - As imgproxy's defaults: the EXIF orientation is applied, metadata is
 *   dropped, images are never enlarged, animations are reduced to their
 *   first frame, colours end in sRGB (CMYK JPEGs included), JPEGs are
 *   progressive (hosted's setting).
 * - Memory stays bounded: at most `IMAGE_CONCURRENCY` transformations run at
 *   once, each on one libvips thread, with libvips' operation cache off and
 *   sequential reads; further requests wait their turn (past `QUEUE_LIMIT`
 *   waiting, hosted's 429 "Too many requests").
 * - Results are kept on disk by (bucket, object version, options, output
 *   format), beside the object's bytes; a new version is a new key, and the
 *   cached results of a version go when its file goes (FileStore.remove).
 */
export const MAX_SOURCE_BYTES = 25 * 1024 * 1024;
export const MAX_SOURCE_PIXELS = 50_000_000;
export const IMAGE_CONCURRENCY = Math.max(1, Math.min(4, os.availableParallelism()));
const QUEUE_LIMIT = 200;

sharp.cache(false);
sharp.concurrency(1);

export interface RenderedImage {
  file: string;
  size: number;
  contentType: string;
  /** whether this answer came from the cache */
  cached: boolean;
}

function imageError(message: string, status = 400): StorageError {
  return new StorageError(status, status > 499 ? "InternalError" : "InvalidRequest", message);
}

const invalidSource = () => imageError("The source image is invalid or unsupported for rendering");

/** A transformed copy of the object version's file, from the cache or made now. */
export async function renderImage(
  store: FileStore,
  source: { bucket: string; version: string },
  options: TransformOptions,
  accept: string | null,
): Promise<RenderedImage> {
  const input = store.pathOf(source.bucket, source.version);
  const stat = await fs.promises.stat(input);
  if (stat.size > MAX_SOURCE_BYTES) throw imageError("The source image file is too large to process");

  const header = await sharp(input, { pages: 1 })
    .metadata()
    .catch(() => null);
  if (!header?.format || !header.width || !header.height) throw invalidSource();
  if (header.width * header.height > MAX_SOURCE_PIXELS)
    throw imageError("The source image resolution is too large to process");

  const format = outputFormat(options.format, accept, { format: header.format, hasAlpha: !!header.hasAlpha });
  const dir = store.renderCacheDir(source.bucket, source.version);
  const file = path.join(dir, `${cacheKey(options, format)}.${format}`);
  const hit = await fs.promises.stat(file).catch(() => null);
  if (hit) return { file, size: hit.size, contentType: CONTENT_TYPES[format], cached: true };

  await gate.enter();
  try {
    const tmp = path.join(store.root, ".tmp", crypto.randomUUID());
    try {
      await pipeline(input, options, format).toFile(tmp);
      await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
      await fs.promises.rename(tmp, file);
    } catch (error) {
      await fs.promises.rm(tmp, { force: true });
      if (error instanceof StorageError) throw error;
      throw sourceError(error);
    }
  } finally {
    gate.leave();
  }
  const made = await fs.promises.stat(file);
  return { file, size: made.size, contentType: CONTENT_TYPES[format], cached: false };
}

function cacheKey(options: TransformOptions, format: OutputFormat): string {
  const canonical = [options.width ?? 0, options.height ?? 0, options.resize ?? "cover", options.quality ?? 0, format];
  return crypto.createHash("sha256").update(canonical.join("|")).digest("hex").slice(0, 32);
}

const FIT = { cover: "cover", contain: "inside", fill: "fill" } as const;

function pipeline(input: string, options: TransformOptions, format: OutputFormat): Sharp {
  let image = sharp(input, {
    limitInputPixels: MAX_SOURCE_PIXELS,
    failOn: "error",
    autoOrient: true,
    pages: 1,
    sequentialRead: true,
  });
  const clamp = (n: number | undefined) => (n ? Math.min(Math.max(n, SIZE_LIMITS.min), SIZE_LIMITS.max) : undefined);
  const width = clamp(options.width);
  const height = clamp(options.height);
  if (width || height)
    image = image.resize({
      width,
      height,
      fit: FIT[options.resize ?? "cover"] ?? "cover",
      withoutEnlargement: true,
    });
  const quality = options.quality ?? DEFAULT_QUALITY;
  switch (format) {
    case "jpeg":
      return image.jpeg({ quality, progressive: true });
    case "webp":
      return image.webp({ quality });
    case "avif":
      return image.avif({ quality, effort: 2 });
    case "png":
      return image.png();
    case "gif":
      return image.gif();
    case "tiff":
      return image.tiff({ quality });
  }
}

/** libvips' refusals of a source, in hosted's words (its mapping of imgproxy's messages). */
function sourceError(error: unknown): StorageError {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return imageError("The source image resolution is too large to process");
  if (
    /unsupported image format|premature end|corrupt|truncated|invalid|read error|not a known file format|vips/i.test(
      message,
    )
  )
    return invalidSource();
  console.error("[storage] image transformation failed:", error);
  return imageError("Internal error", 500);
}

/** At most IMAGE_CONCURRENCY holders at once; the rest wait in order. */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async enter(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return;
    }
    if (this.waiting.length >= QUEUE_LIMIT) throw imageError("Too many requests", 429);
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

const gate = new Gate(IMAGE_CONCURRENCY);
