/** The kinds of file content an upload streams from. */
export type ByteSource = Uint8Array | Blob | AsyncIterable<Uint8Array>;

function piecesOf(source: ByteSource): AsyncIterable<Uint8Array> | Iterable<Uint8Array> {
  if (source instanceof Uint8Array) return [source];
  if (source instanceof Blob) return source.stream();
  return source;
}

/** The byte count of a source that knows it; undefined for streams. */
export function knownSize(source: ByteSource): number | undefined {
  if (source instanceof Uint8Array) return source.byteLength;
  if (source instanceof Blob) return source.size;
  return undefined;
}

/**
 * Regroups the source's pieces, whatever their sizes, into chunks of exactly `size` bytes
 * (the last may be shorter). Only the chunk being filled is held in memory.
 */
export async function* fixedSizeChunks(source: ByteSource, size: number): AsyncGenerator<Buffer> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for await (const piece of piecesOf(source)) {
    for (let offset = 0; offset < piece.byteLength; ) {
      const take = Math.min(size - pendingBytes, piece.byteLength - offset);
      pending.push(piece.subarray(offset, offset + take));
      pendingBytes += take;
      offset += take;
      if (pendingBytes === size) {
        yield Buffer.concat(pending, size);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}
