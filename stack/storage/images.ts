import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { StorageError, storageErrors } from "./errors.ts";
import type { FileStore } from "./files.ts";
import { mimeAllowed } from "./objects-write.ts";
import { IMAGE_CONCURRENCY, type RenderJob, RenderStopped, runRender } from "./render-pool.ts";
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
 * - Only raster formats are rendered, judged by the file's first bytes (and
 *   libvips must read it as the same format): an SVG declared as image/png is
 *   refused as hosted refuses an unsupported source; in a bucket with MIME
 *   rules, the bytes' type must be one it allows (issue 35, M2).
 * - Work is bounded: at most `IMAGE_CONCURRENCY` transformations run at
 *   once, each in a process of its own on one libvips thread (render-pool.ts),
 *   stopped at its deadline (10 s) or when the client leaves; the result has
 *   at most `MAX_OUTPUT_PIXELS`; WebP and AVIF use fast encoder efforts.
 *   Further requests wait their turn (past `QUEUE_LIMIT` waiting, hosted's
 *   429 "Too many requests").
 * - Results are kept on disk by (bucket, object version, options, output
 *   format), beside the object's bytes; a new version is a new key, and the
 *   cached results of a version go when its file goes (FileStore.remove).
 */
export const MAX_SOURCE_BYTES = 25 * 1024 * 1024;
export const MAX_SOURCE_PIXELS = 50_000_000;
/**
 * The most pixels a render writes: hosted's largest size on a side, squared.
 * A larger result (a 49-megapixel source converted to AVIF with no size, or
 * 2,500 wide from a very tall source) is scaled down to this many.
 */
export const MAX_OUTPUT_PIXELS = 2500 * 2500;
export { IMAGE_CONCURRENCY };
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

/**
 * The raster formats rendered, by their first bytes, and libvips' name for
 * each. Anything else (SVG, PDF, HTML, whatever the upload declared) is not
 * rendered: libvips would run SVG filters and PDF pages at any cost.
 */
const RASTER: { type: string; vips: string; test(b: Buffer): boolean }[] = [
  {
    type: "image/png",
    vips: "png",
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: "image/jpeg", vips: "jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", vips: "gif", test: (b) => /^GIF8[79]a/.test(b.toString("latin1", 0, 6)) },
  {
    type: "image/webp",
    vips: "webp",
    test: (b) => b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP",
  },
  {
    type: "image/avif",
    vips: "heif",
    test: (b) => b.toString("latin1", 4, 8) === "ftyp" && /^avi[fs]$/.test(b.toString("latin1", 8, 12)),
  },
  { type: "image/tiff", vips: "tiff", test: (b) => ["II*\0", "MM\0*"].includes(b.toString("latin1", 0, 4)) },
];

/** The raster format a file's bytes are, or null. */
export async function sniffRaster(file: string): Promise<(typeof RASTER)[number] | null> {
  const handle = await fs.promises.open(file, "r");
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    const bytes = head.subarray(0, bytesRead);
    return RASTER.find((r) => bytes.length >= 12 && r.test(bytes)) ?? null;
  } finally {
    await handle.close();
  }
}

export interface RenderSource {
  bucket: string;
  version: string;
  /** the bucket's allowed_mime_types (null or empty: any) */
  allowedMimeTypes: string[] | null;
}

/** A transformed copy of the object version's file, from the cache or made now. */
export async function renderImage(
  store: FileStore,
  source: RenderSource,
  options: TransformOptions,
  accept: string | null,
  /** the render's deadline (config storage.renderDeadlineMs), and the client's leaving */
  { deadlineMs, signal }: { deadlineMs: number; signal?: AbortSignal },
): Promise<RenderedImage> {
  const input = store.pathOf(source.bucket, source.version);
  const stat = await fs.promises.stat(input);
  if (stat.size > MAX_SOURCE_BYTES) throw imageError("The source image file is too large to process");
  // judged by its bytes, never by the type its upload declared
  const raster = await sniffRaster(input);
  if (!raster) throw invalidSource();
  if (!mimeAllowed({ allowed_mime_types: source.allowedMimeTypes }, raster.type))
    throw storageErrors.invalidMimeType(raster.type);

  const header = await sharp(input, { pages: 1 })
    .metadata()
    .catch(() => null);
  if (!header?.format || !header.width || !header.height || header.format !== raster.vips) throw invalidSource();
  if (header.width * header.height > MAX_SOURCE_PIXELS)
    throw imageError("The source image resolution is too large to process");

  const format = outputFormat(options.format, accept, { format: header.format, hasAlpha: !!header.hasAlpha });
  const dir = store.renderCacheDir(source.bucket, source.version);
  const file = path.join(dir, `${cacheKey(options, format)}.${format}`);
  const hit = await fs.promises.stat(file).catch(() => null);
  if (hit) return { file, size: hit.size, contentType: CONTENT_TYPES[format], cached: true };

  const oriented = header.autoOrient ?? header;
  await gate.enter(signal);
  try {
    const tmp = path.join(store.root, ".tmp", crypto.randomUUID());
    try {
      await runRender(job(input, tmp, options, format, oriented), deadlineMs, signal);
      await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
      await fs.promises.rename(tmp, file);
    } catch (error) {
      await fs.promises.rm(tmp, { force: true });
      if (error instanceof StorageError) throw error;
      if (error instanceof RenderStopped) {
        if (error.reason === "deadline") throw imageError("The image took too long to render", 504);
        throw imageError("The client went away", 499);
      }
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

/** What the render worker does: the resize (bounded to MAX_OUTPUT_PIXELS) and the encoder's settings. */
function job(
  input: string,
  output: string,
  options: TransformOptions,
  format: OutputFormat,
  source: { width: number; height: number },
): RenderJob {
  const clamp = (n: number | undefined) => (n ? Math.min(Math.max(n, SIZE_LIMITS.min), SIZE_LIMITS.max) : undefined);
  let width = clamp(options.width);
  let height = clamp(options.height);
  let fit: string = FIT[options.resize ?? "cover"] ?? "cover";
  // the size libvips would write: both sides given, or one side and the source's proportions, never enlarged
  const scale = Math.min(1, width && height ? 1 : width ? width / source.width : height ? height / source.height : 1);
  const outWidth = width && height ? Math.min(width, source.width) : Math.round(source.width * scale);
  const outHeight = width && height ? Math.min(height, source.height) : Math.round(source.height * scale);
  if (outWidth * outHeight > MAX_OUTPUT_PIXELS) {
    const k = Math.sqrt(MAX_OUTPUT_PIXELS / (outWidth * outHeight));
    width = Math.max(1, Math.floor(outWidth * k));
    height = Math.max(1, Math.floor(outHeight * k));
    fit = "inside";
  }
  const resize = width || height ? { width, height, fit, withoutEnlargement: true } : undefined;
  const quality = options.quality ?? DEFAULT_QUALITY;
  const encode: Record<OutputFormat, Record<string, unknown>> = {
    jpeg: { quality, progressive: true },
    // libvips' faster efforts: the default ones cost several times as much for a few per cent of bytes
    webp: { quality, effort: 2 },
    avif: { quality, effort: 1 },
    png: { effort: 4 },
    gif: { effort: 4 },
    tiff: { quality },
  };
  return { input, output, resize, format, encode: encode[format] };
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

  /** Waits for a place; a client that leaves while waiting gives up its turn (and takes no place). */
  async enter(signal?: AbortSignal): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return;
    }
    if (this.waiting.length >= QUEUE_LIMIT) throw imageError("Too many requests", 429);
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener("abort", leave);
        resolve();
      };
      const leave = () => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(imageError("The client went away", 499));
      };
      this.waiting.push(turn);
      signal?.addEventListener("abort", leave, { once: true });
    });
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

const gate = new Gate(IMAGE_CONCURRENCY);
