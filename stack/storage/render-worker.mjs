/**
 * One image transformation at a time, in a process of its own (started by
 * render-pool.ts). libvips cannot be interrupted from outside a pipeline, so
 * a render past its deadline, or whose client went away, is stopped by
 * killing this process; the stack starts another for the next render.
 *
 * Plain JavaScript: a child process starts without the TypeScript loader the
 * stack runs under (tsx, vitest).
 *
 * Protocol: the stack sends { id, input, output, resize?, format, encode }
 * and gets { id } once `output` is written, or { id, error } (libvips'
 * message).
 */
import sharp from "sharp";

sharp.cache(false);
sharp.concurrency(1);

/** what a source may cost: hosted's 50 megapixels (images.ts checks it first, from the header) */
const MAX_SOURCE_PIXELS = 50_000_000;

process.on("message", async (job) => {
  try {
    let image = sharp(job.input, {
      limitInputPixels: MAX_SOURCE_PIXELS,
      failOn: "error",
      autoOrient: true,
      pages: 1,
      sequentialRead: true,
    });
    if (job.resize) image = image.resize(job.resize);
    await image[job.format](job.encode).toFile(job.output);
    process.send({ id: job.id });
  } catch (error) {
    process.send({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
process.on("disconnect", () => process.exit(0));
