// The integrity of an archive's skill, worked out while the archive is unpacked: the extraction hashes each file's
// bytes as it writes them (ExtractOptions.digest; for a big archive on the thread that writes the files), so the
// main thread does not read and hash them all again afterwards (35 MB of SHA-512 for a 10,000-file skill). Which
// folder of the archive is the skill is known only at the end: the first file's top folder is taken for it (or the
// archive's top, when that file sits there), and the digest is used only when the skill's files turn out to be
// exactly the ones hashed, in that order; else digest() works it out from the files as before. The bytes hashed
// are digest()'s: the same header before each file (fileHeader), the same files left out (KeptFiles).
import type { ExtractOptions } from '../fs/archive.js';
import { ALGORITHM, KeptFiles, fileHeader, type StoredFile } from './integrity.js';

export class StreamedDigest {
  /** The folder (with its slash) the skill is taken to be in: set by the first file. */
  private prefix: string | undefined;
  /** The files hashed, in order: their paths below `prefix`. */
  private readonly rels: string[] = [];
  private readonly kept = new KeptFiles();
  private claimed = false;

  /** What to give extractArchive (ExtractOptions.digest) for the digest it returns to be the one `result` checks. */
  readonly options: NonNullable<ExtractOptions['digest']> = {
    algorithm: ALGORITHM,
    header: (rel, mode, size) => this.header(rel, mode, size),
  };

  /**
   * The integrity of the skill in the archive's folder `inner` ('' for its top), whose files are `files`, from the
   * extraction's `digest`: when those are the files hashed (and the digest is there), else undefined. Given once.
   */
  result(files: StoredFile[], inner: string, digest: string | undefined): string | undefined {
    const asKept = inner === '' ? '' : `${inner}/`;
    if (digest === undefined || this.claimed || this.prefix !== asKept || files.length !== this.rels.length)
      return undefined;
    for (let i = 0; i < files.length; i++)
      if (files[i]!.kind !== 'file' || files[i]!.rel !== this.rels[i]) return undefined;
    this.claimed = true;
    return `${ALGORITHM}-${digest}`;
  }

  /** A file the extraction is about to write: the text to hash before its bytes, or undefined when not hashed. */
  private header(rel: string, mode: number, size: number): string | undefined {
    if (this.prefix === undefined) {
      const slash = rel.indexOf('/');
      this.prefix = slash < 0 ? '' : rel.slice(0, slash + 1);
    }
    if (!rel.startsWith(this.prefix)) return undefined;
    const below = rel.slice(this.prefix.length);
    if (!this.kept.keeps(below)) return undefined;
    this.rels.push(below);
    return fileHeader({ kind: 'file', rel: below, mode }, size);
  }
}
