// After `remix vite:build`: a Brotli (quality 11) and a gzip (level 9) copy of
// every fingerprinted script and stylesheet in build/client/assets, beside the
// file (`x.js.br`, `x.js.gz`). The production server (server.mjs) sends them to
// browsers that accept them, so assets are compressed once, as hard as the
// formats allow, instead of on every request at the middleware's quick
// settings (whose Brotli at quality 4 came out larger than its gzip). Node
// built-ins only. `node scripts/precompress.mjs [folder]`.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const COMPRESSIBLE = /\.(?:js|css|svg|json)$/;

/**
 * The copies made beside each file, in the order the server prefers them
 * (server.mjs), each with how it is made.
 */
export const COPIES = [
  {
    encoding: "br",
    suffix: ".br",
    compress: (body) =>
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
  },
  {
    encoding: "gzip",
    suffix: ".gz",
    compress: (body) => zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  },
];

/** Writes the copies of every compressible file in `folder`; bytes in all: plain, Brotli, gzip. */
export function precompress(folder) {
  const totals = { plain: 0, br: 0, gzip: 0 };
  for (const name of fs.readdirSync(folder)) {
    if (!COMPRESSIBLE.test(name)) continue;
    const file = path.join(folder, name);
    const body = fs.readFileSync(file);
    totals.plain += body.length;
    for (const { encoding, suffix, compress } of COPIES) {
      const copy = compress(body);
      fs.writeFileSync(`${file}${suffix}`, copy);
      totals[encoding] += copy.length;
    }
  }
  return totals;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = path.resolve(process.argv[2] ?? "build/client/assets");
  const { plain, br, gzip } = precompress(folder);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `[precompress] ${path.relative(process.cwd(), folder)}: ${kib(plain)} → Brotli ${kib(br)}, gzip ${kib(gzip)}`,
  );
}
