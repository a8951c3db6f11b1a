// wllama's cache, where its own writer cannot run: a shared worker. wllama
// writes downloads to the Origin Private File System through a worker of its
// own with a sync access handle, which only a dedicated worker has; a
// writable stream (`createWritable`) is there in every worker. Same directory,
// same names: a file written here is the one a tab's own worker reads.
import type { CacheManager } from '@wllama/wllama';

type StorageBackend = NonNullable<ConstructorParameters<typeof CacheManager>[0]>[number];

/** wllama's directory in the Origin Private File System. */
async function cacheDir(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle('cache', { create: true });
}

async function file(key: string): Promise<File | null> {
  try {
    return await (await (await cacheDir()).getFileHandle(key)).getFile();
  } catch {
    return null;
  }
}

export class WritableOpfsBackend implements StorageBackend {
  isSupported(): boolean {
    return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function';
  }

  read(key: string): Promise<Blob | null> {
    return file(key);
  }

  async write(key: string, stream: ReadableStream): Promise<void> {
    const handle = await (await cacheDir()).getFileHandle(key, { create: true });
    // The stream writes a copy that replaces the file only when it closes: a download that stops leaves the file as it was.
    await stream.pipeTo(await handle.createWritable());
  }

  async getSize(key: string): Promise<number> {
    return (await file(key))?.size ?? -1;
  }

  async list(): Promise<Array<{ key: string; size: number }>> {
    const listed: Array<{ key: string; size: number }> = [];
    const dir = (await cacheDir()) as FileSystemDirectoryHandle & { entries(): AsyncIterable<[string, FileSystemHandle]> };
    for await (const [key, handle] of dir.entries()) {
      if (handle.kind === 'file') listed.push({ key, size: (await (handle as FileSystemFileHandle).getFile()).size });
    }
    return listed;
  }

  async delete(key: string): Promise<void> {
    try {
      await (await cacheDir()).removeEntry(key);
    } catch (error) {
      if ((error as { name?: string }).name !== 'NotFoundError') throw error;
    }
  }
}
