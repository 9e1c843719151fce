/// <reference types="vite/client" />
interface ImportMetaEnv {
  readonly VITE_API_BASE?: string;
  readonly VITE_HIDE_API_BASE?: string;
  readonly VITE_BULK_DOWNLOAD?: string;
}
