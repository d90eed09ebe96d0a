// The Astro side of a build: the pages Astro renders (home, categories, search, documentation, site files) and what they are built from.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroInlineConfig, AstroIntegration } from 'astro';
import astroSettings from '../../../astro.config.mjs';
import { linkFiles } from '../link-files.ts';
import type { SitePagesJob } from './site-pages-process.ts';

/** What `src/site.ts` imports to read the build's SiteContext. */
export const SITE_CONTEXT_MODULE = 'virtual:garment-press/site-context';

const contextReader = fileURLToPath(new URL('./site-context-file.ts', import.meta.url));

/**
 * The Astro integration that serves one build's context, written in `contextFile` (writeSiteContext), as
 * SITE_CONTEXT_MODULE: a module reading the file when the pages load (they are rendered in Node), not one
 * holding the context in its code, which would be one string of every record.
 */
export function siteContextIntegration(contextFile: string): AstroIntegration {
  const resolvedId = `\0${SITE_CONTEXT_MODULE}`;
  const code = `import { readSiteContext } from ${JSON.stringify(contextReader)};\nexport default readSiteContext(${JSON.stringify(contextFile)});`;
  return {
    name: 'garment-press:site-context',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'garment-press:site-context',
                resolveId: (id: string) => (id === SITE_CONTEXT_MODULE ? resolvedId : undefined),
                load: (id: string) => (id === resolvedId ? code : undefined),
              },
            ],
          },
        });
      },
    },
  };
}

/**
 * One build's Astro configuration: the settings of `astro.config.mjs` (read once, never again by
 * Astro) with the build's own site address, its folders (from `projectRoot`'s `src/pages` into
 * `outDir`, which is not emptied first since the record threads write into it too) and its context (the file writeSiteContext wrote).
 */
export function astroConfig(site: string, contextFile: string, projectRoot: string, outDir: string): AstroInlineConfig {
  return {
    ...astroSettings,
    configFile: false,
    root: projectRoot,
    outDir,
    site,
    logLevel: 'warn',
    vite: { ...astroSettings.vite, build: { ...astroSettings.vite?.build, emptyOutDir: false } },
    integrations: [...(astroSettings.integrations ?? []), siteContextIntegration(contextFile)],
  };
}

/**
 * Renders Astro's pages of one build into `outDir`. Astro 7 writes its intermediate server build
 * under the working directory when `outDir` is not inside it (getOutDirWithinCwd), where two
 * builds at once would overwrite each other and which must resolve node_modules, so Astro works
 * from `privateDir`, a folder of this build's own inside the project, and the working directory is
 * put back after. Run in the Astro process (site-pages-process.ts), whose working directory no one
 * else shares.
 */
export async function renderSitePages(
  astro: typeof import('astro'),
  { site, contextFile, projectRoot, outDir, privateDir }: SitePagesJob,
): Promise<void> {
  const workingDir = process.cwd();
  // Astro renames its assets from privateDir into outDir, which fails (EXDEV) across filesystems: it then builds beside privateDir, and the files are copied over.
  const sameFilesystem = (await stat(privateDir)).dev === (await stat(outDir)).dev;
  const astroOutDir = sameFilesystem ? outDir : path.join(privateDir, 'site');
  process.chdir(privateDir);
  try {
    await astro.build(astroConfig(site, contextFile, projectRoot, astroOutDir));
  } finally {
    process.chdir(workingDir);
  }
  if (!sameFilesystem) await linkFiles(await listFiles(astroOutDir), astroOutDir, outDir);
}

/** Every file under a folder, as paths relative to it. */
async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}
