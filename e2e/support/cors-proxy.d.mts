// Types of cors-proxy.mjs, for the TypeScript tests that start it.
export interface CorsProxy {
  url: string;
  close(): Promise<void>;
}

export function startCorsProxy(options?: { hosts?: string[] }): Promise<CorsProxy>;
