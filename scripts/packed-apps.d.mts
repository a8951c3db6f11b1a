/** The installed app: e2e/packed-app's files, the tarball, and its node_modules. */
export declare const PACKED_APP_DIR: string;
export declare const PACKED_AI_SDK_APP_DIR: string;
/** Where the builds go, to be served: `vite/` and `webpack/`. */
export declare const PACKED_APPS_OUT: string;
/** Pack the package, install it in a fresh app, and build the app with Vite and with webpack. */
export declare function buildPackedApps(): void;
