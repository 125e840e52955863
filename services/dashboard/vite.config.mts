import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Served by the gateway under /dashboard, same origin as the API. JSX goes through Vite's own esbuild (the
// automatic runtime), so no framework plugin is needed.
export default defineConfig({
  base: '/dashboard/',
  esbuild: { jsx: 'automatic' },
  resolve: {
    // The typed client's TypeScript source, bundled with the app (the package's dist is CommonJS for Node).
    alias: {
      '@bm/client': fileURLToPath(new URL('../../libs/client/src/index.ts', import.meta.url)),
      // The pure rules the API checks templates and flows with (no runtime imports), so the builders agree with it.
      '@bm/contracts/rules': fileURLToPath(new URL('../../libs/contracts/src/rules/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every supported browser has module preload; the polyfill would be one more script to load.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: {
      // TanStack Query marks its modules "use client" for React Server Components; a client bundle ignores it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
