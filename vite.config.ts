import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, 'src/web');

export default defineConfig({
  root,
  publicDir: resolve(root, 'public'),
  plugins: [react()],
  build: {
    outDir: resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    // `:dir()` (conversation rows, see conversations.css) must reach the browser as written: for
    // older targets it is rewritten into `:lang()` lists, which mean something else. Browsers
    // without `:dir()` drop that one rule and keep the rest.
    cssTarget: ['chrome120', 'edge120', 'firefox115', 'safari16.4'],
    rolldownOptions: {
      input: {
        messages: resolve(root, 'index.html'),
        login: resolve(root, 'login.html'),
      },
      output: {
        // Both pages share React and i18next: each gets a chunk of its own, named for what it holds
        // and cached across releases that do not change it. Left to itself, Rolldown put them in
        // one shared chunk named after the first module in it, styles/index.css ("styles-….js").
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 2,
            },
            {
              name: 'i18n',
              test: /[\\/]node_modules[\\/](i18next|react-i18next|use-sync-external-store)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '^/(load|user|login|logout|api|broadcasting|messenger|images)': 'http://127.0.0.1:3000',
      '/app': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
});
