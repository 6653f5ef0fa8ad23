import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { Caller, StorageEnv } from "./env.ts";
import { uploadObject } from "./objects-write.ts";

/**
 * Files for a fresh database, as the Supabase CLI seeds them: each
 * `[storage.buckets.<name>]` table of supabase/config.toml with an
 * `objects_path` (relative to the supabase folder) has every file under that
 * folder uploaded into the bucket, named by its path below the folder. The
 * buckets themselves come from the migrations here; a table naming a bucket
 * that does not exist is reported and skipped. Runs once, right after the
 * seed (so `seed.sql` can refer to the objects by name).
 */
const TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".avif": "image/avif",
  ".svg": "image/svg+xml",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".json": "application/json",
};

export function parseBucketSeeds(toml: string): Array<{ bucket: string; objectsPath: string }> {
  const seeds: Array<{ bucket: string; objectsPath: string }> = [];
  let bucket: string | null = null;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (!line || line.startsWith("#")) continue;
    const table = /^\[\s*storage\.buckets\.(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*\]$/.exec(line);
    if (table) {
      bucket = table[1] ?? table[2];
      continue;
    }
    if (line.startsWith("[")) {
      bucket = null;
      continue;
    }
    const pair = /^objects_path\s*=\s*"([^"]*)"$/.exec(line);
    if (pair && bucket) seeds.push({ bucket, objectsPath: pair[1] });
  }
  return seeds;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith("."))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

export async function seedBucketObjects(env: StorageEnv, configFile: string): Promise<number> {
  if (!fs.existsSync(configFile)) return 0;
  const base = path.dirname(configFile);
  const service: Caller = { role: "service_role", claims: { role: "service_role" }, method: "POST", path: "/object" };
  let count = 0;
  for (const { bucket, objectsPath } of parseBucketSeeds(fs.readFileSync(configFile, "utf8"))) {
    const root = path.resolve(base, objectsPath);
    for (const file of filesUnder(root)) {
      const name = path.relative(root, file).split(path.sep).join("/");
      const size = fs.statSync(file).size;
      try {
        await uploadObject(
          env,
          service,
          { bucket, name },
          {
            stream: Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>,
            contentType: TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
            contentLength: size,
            cacheControl: "max-age=3600",
            metadata: null,
          },
          { upsert: true, owner: null },
        );
        count++;
      } catch (error) {
        env.ctx.log("storage", `seed: ${bucket}/${name} not uploaded: ${(error as Error).message}`);
      }
    }
  }
  if (count)
    env.ctx.log("storage", `seeded ${count} object${count === 1 ? "" : "s"} from ${path.basename(configFile)}`);
  return count;
}
