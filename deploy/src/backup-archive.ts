import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';

/**
 * The backup file: gzip of a first line `vat-backup/1`, one JSON line (the manifest), then per directory
 * a JSON line `{ "path", "dir": true }` (PostgreSQL needs its empty ones) and per file a JSON line
 * `{ "path", "size" }` followed by exactly `size` bytes, and last a JSON line
 * `{ "end": true, "files", "sha256" }` whose digest covers everything before it. A truncated or altered
 * file is refused on restore before anything is written.
 */
export const BACKUP_FORMAT = 'vat-backup/1';

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  created_at: string;
  pglite_version: string;
  /** SHA-256 of the 32 key bytes, hex: tells a restore whether the key it is given is the data's. */
  data_encryption_key_sha256: string;
  /** The key's text, only when the backup was made with `--include-key`. */
  data_encryption_key?: string;
  /** Applied migrations per schema when the backup was taken. */
  migrations: Record<string, string[]>;
};

type Trailer = { end: true; files: number; sha256: string };

/** Writes an archive; entries are added one at a time with backpressure. */
export class ArchiveWriter {
  private readonly gzip: Gzip = createGzip();
  private readonly file: WriteStream;
  private readonly done: Promise<void>;
  private readonly hash: Hash = createHash('sha256');
  private files = 0;
  bytes = 0;

  constructor(path: string, manifest: BackupManifest) {
    this.file = createWriteStream(path, { mode: 0o600, flags: 'wx' });
    this.done = new Promise((resolve, reject) => {
      this.file.once('finish', resolve);
      this.file.once('error', reject);
      this.gzip.once('error', reject);
    });
    this.done.catch(() => undefined);
    this.gzip.pipe(this.file);
    void this.write(Buffer.from(`${BACKUP_FORMAT}\n${JSON.stringify(manifest)}\n`));
  }

  private async write(chunk: Buffer): Promise<void> {
    this.hash.update(chunk);
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  async addDir(path: string): Promise<void> {
    await this.write(Buffer.from(`${JSON.stringify({ path, dir: true })}\n`));
  }

  async add(path: string, content: Buffer): Promise<void> {
    await this.write(Buffer.from(`${JSON.stringify({ path, size: content.length })}\n`));
    await this.write(content);
    this.files++;
    this.bytes += content.length;
  }

  async finish(): Promise<{ files: number; bytes: number }> {
    const trailer: Trailer = { end: true, files: this.files, sha256: this.hash.digest('hex') };
    this.gzip.end(Buffer.from(`${JSON.stringify(trailer)}\n`));
    await this.done;
    return { files: this.files, bytes: this.bytes };
  }
}

/** Reads an archive front to back: the manifest, then each entry; the trailer's digest is checked at the end. */
export class ArchiveReader {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private readonly source: AsyncIterator<Buffer>;
  private readonly hash: Hash = createHash('sha256');
  private ended = false;

  constructor(path: string) {
    this.source = createReadStream(path).pipe(createGunzip())[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.buffered < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        this.chunks.push(next.value);
        this.buffered += next.value.length;
      }
    }
    return this.buffered >= n;
  }

  private take(n: number): Buffer {
    const all = Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    this.chunks.length = 0;
    if (all.length > n) this.chunks.push(all.subarray(n));
    this.buffered = all.length - n;
    this.hash.update(out);
    return out;
  }

  /** One line (without its newline); lines here are short JSON, so 64 KB bounds a corrupt file. */
  private async line(): Promise<string> {
    for (let want = 1; ; want = this.buffered + 1) {
      const at = Buffer.concat(this.chunks).indexOf(10);
      if (at >= 0) return this.take(at + 1).subarray(0, at).toString('utf8');
      if (this.buffered > 65_536 || !(await this.fill(want))) throw new Error('not a complete backup file (truncated or damaged)');
    }
  }

  async manifest(): Promise<BackupManifest> {
    const first = await this.line().catch(() => '');
    if (first !== BACKUP_FORMAT) throw new Error(`not a backup file of this service (expected ${BACKUP_FORMAT})`);
    return JSON.parse(await this.line()) as BackupManifest;
  }

  /** The entries in order; ends after checking the trailer's file count and digest. */
  async *entries(): AsyncGenerator<{ path: string; content?: Buffer }> {
    let files = 0;
    for (;;) {
      const digest = this.hash.copy().digest('hex');
      const header = JSON.parse(await this.line()) as { path?: string; size?: number; dir?: true } & Partial<Trailer>;
      if (header.end) {
        if (header.files !== files || header.sha256 !== digest) throw new Error('the backup file is damaged (its checksum does not match)');
        return;
      }
      if (header.dir === true && typeof header.path === 'string') {
        yield { path: header.path };
        continue;
      }
      if (typeof header.path !== 'string' || !Number.isSafeInteger(header.size) || header.size! < 0) throw new Error('the backup file is damaged (bad entry)');
      if (!(await this.fill(header.size!))) throw new Error('not a complete backup file (truncated or damaged)');
      files++;
      yield { path: header.path, content: Buffer.from(this.take(header.size!)) };
    }
  }
}
