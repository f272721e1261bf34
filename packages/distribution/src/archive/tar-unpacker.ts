import { link, mkdir, open, symlink, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, posix } from 'node:path';
import { Writable } from 'node:stream';
import { InputFileError } from '@partonfit/core';
import { readTarHeader, TAR_BLOCK, tarMetadata, type TarHeader } from '@partonfit/io';

/** One member of an unpacked tar archive. */
export interface TarMember {
  /** The member's path inside the archive, normalised (`theory_200/fastkernel/FK_X.dat`). */
  readonly name: string;
  /** `file`, `directory` or `link` (symbolic or hard). */
  readonly kind: 'file' | 'directory' | 'link';
  /** The size of a file's data in bytes; 0 for the others. */
  readonly size: number;
}

/** Tar type flags of regular files: `0`, NUL (old tars) and `7` (contiguous). */
const FILE_TYPES = new Set(['0', '\0', '7']);

/** What the member being read is, and where its data goes. */
type Current =
  | { readonly kind: 'metadata'; readonly header: TarHeader; readonly chunks: Buffer[] }
  | { readonly kind: 'file'; readonly handle: FileHandle | undefined }
  | { readonly kind: 'none' };

/**
 * A writable stream that reads a tar archive (POSIX ustar, pax or GNU) as its bytes arrive and
 * writes its members under `folder` — or, with no folder, only checks it and lists them. When
 * writing, member names that are absolute or climb out with `..` are refused, as are links that
 * point outside the folder; device or FIFO members are always refused. When the stream finishes, {@link TarUnpacker.members}
 * lists what the archive held.
 *
 * Errors are InputFileErrors naming `archive`: a wrong header checksum, an unsafe name, or an
 * archive that ends inside a member (truncated).
 */
export class TarUnpacker extends Writable {
  /** The members read so far, in archive order. */
  readonly members: TarMember[] = [];
  private readonly header = Buffer.alloc(TAR_BLOCK);
  private headerFill = 0;
  /** Bytes of the current member's data still to come, then of its padding. */
  private dataLeft = 0;
  private paddingLeft = 0;
  private current: Current = { kind: 'none' };
  private pendingName: string | undefined;
  private offset = 0;
  private ended = false;

  /**
   * @param archive - the archive's file, for error messages
   * @param folder - where to write the members (it must exist); undefined only checks
   */
  constructor(
    private readonly archive: string,
    private readonly folder: string | undefined,
  ) {
    super();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    this.consume(chunk).then(() => {
      callback();
    }, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.ended || (this.headerFill === 0 && this.dataLeft === 0 && this.paddingLeft === 0)) {
      callback();
      return;
    }
    const where =
      this.dataLeft > 0 ? `inside a member (${this.dataLeft} bytes missing)` : 'inside a header';
    callback(this.error(`truncated tar: the archive ends ${where}`));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const current = this.current;
    if (current.kind === 'file' && current.handle !== undefined) {
      current.handle.close().then(
        () => {
          callback(error);
        },
        () => {
          callback(error);
        },
      );
      return;
    }
    callback(error);
  }

  private error(problem: string): InputFileError {
    return new InputFileError({ file: this.archive, problem });
  }

  private async consume(chunk: Buffer): Promise<void> {
    let position = 0;
    while (position < chunk.length && !this.ended) {
      if (this.dataLeft > 0) {
        const length = Math.min(this.dataLeft, chunk.length - position);
        await this.data(chunk.subarray(position, position + length));
        position += length;
        this.dataLeft -= length;
        if (this.dataLeft === 0) await this.finishMember();
      } else if (this.paddingLeft > 0) {
        const length = Math.min(this.paddingLeft, chunk.length - position);
        position += length;
        this.paddingLeft -= length;
      } else {
        const length = Math.min(TAR_BLOCK - this.headerFill, chunk.length - position);
        chunk.copy(this.header, this.headerFill, position, position + length);
        position += length;
        this.headerFill += length;
        if (this.headerFill === TAR_BLOCK) await this.startMember();
      }
    }
  }

  /**
   * The relative path of a member name where it is written, or an error when it would land
   * outside the folder. Only checking (no folder), any name goes: NNPDF's legacy FK archives
   * hold absolute names (apfelcomb's results folder).
   */
  private safeName(name: string): string {
    const relative = normalize(name.replace(/\\/g, '/')).replace(/\/+$/, '');
    if (this.folder === undefined) return relative;
    if (isAbsolute(name) || relative === '..' || relative.startsWith('../') || relative === '') {
      throw this.error(`unsafe member name '${name}' (absolute or outside the archive's folder)`);
    }
    return relative;
  }

  private async startMember(): Promise<void> {
    const blockOffset = this.offset;
    this.offset += TAR_BLOCK;
    this.headerFill = 0;
    const header = readTarHeader(this.header, blockOffset, this.archive);
    if (header === undefined) {
      this.ended = true;
      return;
    }
    const padded = Math.ceil(header.size / TAR_BLOCK) * TAR_BLOCK;
    this.offset += padded;
    this.dataLeft = header.size;
    this.paddingLeft = padded - header.size;
    if (tarMetadata(header.type, new Uint8Array()) !== undefined) {
      this.current = { kind: 'metadata', header, chunks: [] };
    } else {
      const name = this.safeName(this.pendingName ?? header.name);
      this.pendingName = undefined;
      this.current = { kind: 'none' };
      // `./`, which `tar -C <folder> .` writes first, is the folder itself.
      if (name !== '.') await this.member(name, header);
    }
    if (this.dataLeft === 0) await this.finishMember();
  }

  private async member(name: string, header: TarHeader): Promise<void> {
    const target = this.folder === undefined ? undefined : join(this.folder, name);
    if (header.type === '5') {
      if (target !== undefined) await mkdir(target, { recursive: true });
      this.members.push({ name, kind: 'directory', size: 0 });
    } else if (FILE_TYPES.has(header.type)) {
      let handle: FileHandle | undefined;
      if (target !== undefined) {
        await mkdir(dirname(target), { recursive: true });
        handle = await open(target, 'wx');
      }
      this.current = { kind: 'file', handle };
      this.members.push({ name, kind: 'file', size: header.size });
    } else if (header.type === '1' || header.type === '2') {
      await this.link(name, header);
      this.members.push({ name, kind: 'link', size: 0 });
    } else {
      throw this.error(`member '${name}' has type '${header.type}', not a file, folder or link`);
    }
  }

  private async link(name: string, header: TarHeader): Promise<void> {
    const symbolic = header.type === '2';
    const resolved = symbolic ? posix.join(posix.dirname(name), header.linkName) : header.linkName;
    const inside = normalize(resolved);
    if (this.folder === undefined) return;
    if (isAbsolute(header.linkName) || inside === '..' || inside.startsWith('../')) {
      throw this.error(`link '${name}' points outside the archive's folder (${header.linkName})`);
    }
    const target = join(this.folder, name);
    await mkdir(dirname(target), { recursive: true });
    if (symbolic) await symlink(header.linkName, target);
    else await link(join(this.folder, inside), target);
  }

  private async data(bytes: Buffer): Promise<void> {
    const current = this.current;
    if (current.kind === 'metadata') current.chunks.push(Buffer.from(bytes));
    else if (current.kind === 'file' && current.handle !== undefined) {
      await current.handle.write(bytes);
    }
  }

  private async finishMember(): Promise<void> {
    const current = this.current;
    this.current = { kind: 'none' };
    if (current.kind === 'metadata') {
      const name = tarMetadata(current.header.type, Buffer.concat(current.chunks))?.name;
      this.pendingName = name ?? this.pendingName;
    } else if (current.kind === 'file' && current.handle !== undefined) {
      await current.handle.close();
    }
  }
}
