import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { storageErrors } from "./errors.ts";

/**
 * Where object bytes live: `<root>/buckets/<bucket>/<ab>/<version>`, one file
 * per object version (the `version` column), written to `<root>/.tmp/` first
 * and renamed into place, so a crash never leaves a half file under a real
 * name. The root is `<data folder>/storage`, or a temporary folder (removed on
 * close) when the stack keeps its database in memory. Transformed images of a
 * version (images.ts) are kept under `<root>/render/<bucket>/<ab>/<version>/`
 * and removed with the version's file.
 */
export interface StoredFile {
  tmp: string;
  size: number;
  /** hex MD5 of the bytes, as S3 reports an ETag */
  md5: string;
}

export class FileStore {
  private constructor(
    readonly root: string,
    private readonly ephemeral: boolean,
  ) {}

  static open(dataDir: string | null): FileStore {
    const root = dataDir ? path.join(dataDir, "storage") : fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-storage-"));
    // private, like the rest of the data folder (uploads may be private files)
    fs.mkdirSync(path.join(root, ".tmp"), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(root, "buckets"), { recursive: true, mode: 0o700 });
    return new FileStore(root, !dataDir);
  }

  bucketDir(bucket: string): string {
    return path.join(this.root, "buckets", folderName(bucket));
  }

  pathOf(bucket: string, version: string): string {
    if (!/^[0-9a-f-]{36}$/.test(version)) throw new Error(`not a version id: ${version}`);
    return path.join(this.bucketDir(bucket), version.slice(0, 2), version);
  }

  /** Where the transformed images of one object version are kept. */
  renderCacheDir(bucket: string, version: string): string {
    if (!/^[0-9a-f-]{36}$/.test(version)) throw new Error(`not a version id: ${version}`);
    return path.join(this.root, "render", folderName(bucket), version.slice(0, 2), version);
  }

  /**
   * Streams chunks into a temporary file, counting and hashing as it goes;
   * more than `limit` bytes stops the copy with Storage's 413 and removes the
   * partial file. The source is never cancelled here (the HTTP server drains
   * what is left of a request after answering). Memory stays flat.
   */
  async receive(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<StoredFile> {
    const tmp = path.join(this.root, ".tmp", crypto.randomUUID());
    const hash = crypto.createHash("md5");
    let size = 0;
    const out = fs.createWriteStream(tmp, { flags: "wx", mode: 0o600 });
    try {
      for await (const chunk of chunks) {
        size += chunk.length;
        if (size > limit) throw storageErrors.tooLarge();
        hash.update(chunk);
        if (!out.write(chunk)) await once(out, "drain");
      }
      out.end();
      await finished(out);
    } catch (error) {
      out.destroy();
      await this.discard(tmp);
      throw error;
    }
    return { tmp, size, md5: hash.digest("hex") };
  }

  /** Moves a received file under its version's name (atomic on one file system). */
  async commit(tmp: string, bucket: string, version: string): Promise<void> {
    const target = this.pathOf(bucket, version);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await fs.promises.rename(tmp, target);
  }

  async copy(fromBucket: string, fromVersion: string, toBucket: string, toVersion: string): Promise<void> {
    const tmp = path.join(this.root, ".tmp", crypto.randomUUID());
    try {
      await fs.promises.copyFile(this.pathOf(fromBucket, fromVersion), tmp);
      await this.commit(tmp, toBucket, toVersion);
    } catch (error) {
      await this.discard(tmp);
      throw error;
    }
  }

  async remove(bucket: string, version: string | null | undefined): Promise<void> {
    if (!version) return;
    await fs.promises.rm(this.pathOf(bucket, version), { force: true });
    await fs.promises.rm(this.renderCacheDir(bucket, version), { recursive: true, force: true });
  }

  async discard(tmp: string): Promise<void> {
    await fs.promises.rm(tmp, { force: true });
  }

  async stat(bucket: string, version: string): Promise<fs.Stats | null> {
    try {
      return await fs.promises.stat(this.pathOf(bucket, version));
    } catch {
      return null;
    }
  }

  /** Half-written uploads from a previous run (a crash mid-upload) are removed at start. */
  sweepTemp(): void {
    for (const f of fs.readdirSync(path.join(this.root, ".tmp")))
      fs.rmSync(path.join(this.root, ".tmp", f), { force: true });
  }

  close(): void {
    if (this.ephemeral) fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** A bucket id as one folder name (never `.` or `..`). */
function folderName(bucket: string): string {
  return encodeURIComponent(bucket).replace(/^\.+/, (dots) => "%2E".repeat(dots.length));
}
