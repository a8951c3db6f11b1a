export interface GgufServer {
  origin: string;
  /** Every request, in order: the file's name, its Range header, the method. */
  requests: Array<{ name: string; range: string | null; method: string }>;
  /** Whole-body GETs of `name` (a download), as against ranged header reads. */
  downloads(name: string): number;
  close(): Promise<void>;
}

/** Serves `files` (name → path on disk) on a free port of 127.0.0.1, with CORS and byte ranges; `?pace=ms` and `?cut=fraction` per request. */
export declare function startGgufServer(files: Record<string, string>): Promise<GgufServer>;
