import type { ModelRecord } from '@mlc-ai/web-llm';

/** Where the script writes src/model/prebuilt-models.ts. */
export declare const MODULE_PATH: URL;
/** The TypeScript source of src/model/prebuilt-models.ts for this model list. */
export declare function prebuiltModelsSource(modelList: readonly ModelRecord[], webllmVersion: string): string;
/** The installed WebLLM's prebuilt model list and version. */
export declare function installedWebLLM(): Promise<{ modelList: ModelRecord[]; version: string }>;
