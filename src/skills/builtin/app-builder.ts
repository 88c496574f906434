/**
 * `app_builder` (seed 002): scaffolds a small web app from a template (a
 * dependency-free Node HTTP app or a static site), writes its files into the
 * workspace, starts it in the sandbox on a loopback port, health-checks it and
 * returns its URL and files. The app runs until {@link AppHost.stop}, its
 * lifetime ends, or the sandbox is disposed of.
 * @module
 */
import { z } from 'zod/v4';
import { parseJSONLoose } from '../../model/json.js';
import type { SkillContext } from '../context.js';
import { defineSkill } from '../define-skill.js';
import { skillStage } from '../research/pipeline.js';
import { AppHost } from './app-host.js';
import { APP_TEMPLATES, type AppContent, type AppTemplateId, renderTemplate } from './app-templates.js';
import { BuiltinSkillError } from './errors.js';
import { invocationDir, requireSandbox, workspacePath } from './support.js';

/** Options of {@link appBuilderSkill}. */
export interface AppBuilderOptions {
  /** Where started apps are kept, to stop them early. Default: a fresh {@link AppHost}. */
  apps?: AppHost;
  /** For the host-side reachability check. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

const DESIGNER = `You design a small web app's first page. Reply with JSON only:
{"template": "node-http" | "static-site", "title": "...", "tagline": "...", "sections": [{"heading": "...", "text": "..."}]}
Use "node-http" when the app stores or serves data, "static-site" for informational pages. 2 to 4 sections.`;

const contentSchema = z.object({
  template: z.enum(['node-http', 'static-site']).optional().catch(undefined),
  title: z.string().trim().min(1),
  tagline: z.string().default(''),
  sections: z
    .array(z.object({ heading: z.string(), text: z.string() }))
    .max(8)
    .default([]),
});

const STATIC_HINTS = /\b(static|landing|portfolio|brochure|homepage|home page|website|site)\b/i;

/** Output of `app_builder`. */
export const appBuilderOutputSchema = z.object({
  /** Stops it: `apps.stop(appId)`. */
  appId: z.string(),
  template: z.enum(['node-http', 'static-site']),
  /** Loopback URL of the app inside the sandbox. */
  url: z.string(),
  port: z.number().int(),
  /** The app's directory and files, relative to the workspace. */
  dir: z.string(),
  files: z.array(z.string()),
  /** The health check's answer, from inside the sandbox. */
  health: z.object({ status: z.number().int(), body: z.string() }),
  /** Whether this process reaches `url` (a LocalProcessSandbox: yes; bubblewrap's private network: no). */
  reachableFromHost: z.boolean(),
});

/** `app_builder`, keeping its apps in `options.apps`. */
export function appBuilderSkill(options: AppBuilderOptions = {}) {
  const apps = options.apps ?? new AppHost();
  return defineSkill({
    id: 'app_builder',
    name: 'App builder',
    description:
      'Scaffold a small web app (a dependency-free Node HTTP app or a static site), start it in the sandbox and return its URL and files',
    category: 'automation',
    tags: ['web', 'node', 'scaffold', 'sandbox'],
    risk: 'risky',
    parameters: z.object({
      description: z.string().trim().min(1).describe('What the app is for'),
      template: z
        .enum(['node-http', 'static-site'])
        .optional()
        .describe('node-http (API + page) or static-site; chosen from the description when left out'),
      dir: z.string().optional().describe('Directory for the files; default apps/<id>'),
      port: z
        .number()
        .int()
        .min(0)
        .max(65_535)
        .default(0)
        .describe('Port in the sandbox; 0 picks a free one'),
      startTimeoutMs: z.number().int().positive().default(15_000),
      lifetimeMs: z
        .number()
        .int()
        .positive()
        .default(30 * 60_000)
        .describe('The app is stopped after this long'),
    }),
    output: appBuilderOutputSchema,
    async run(params, ctx) {
      const sandbox = requireSandbox(ctx);
      const dir = params.dir === undefined ? invocationDir(ctx, 'apps') : workspacePath(ctx, params.dir);
      const design = await skillStage(ctx, { name: 'design', detail: params.description }, () =>
        designOf(ctx, params.description),
      );
      const templateId: AppTemplateId =
        params.template ??
        design.template ??
        (STATIC_HINTS.test(params.description) ? 'static-site' : 'node-http');
      const template = APP_TEMPLATES[templateId];
      const files = await skillStage(ctx, { name: 'scaffold', detail: dir }, async () => {
        const rendered = renderTemplate(template, design);
        for (const [path, text] of Object.entries(rendered)) await sandbox.writeFile(`${dir}/${path}`, text);
        return Object.keys(rendered).map((path) => `${dir}/${path}`);
      });
      const appId = ctx.runtime.ids.next('app');
      const status = await skillStage(ctx, { name: 'start', detail: `node ${template.entry}` }, () =>
        apps.start(sandbox, {
          appId,
          dir,
          entry: template.entry,
          healthPath: template.healthPath,
          port: params.port,
          startTimeoutMs: params.startTimeoutMs,
          lifetimeMs: params.lifetimeMs,
          signal: ctx.signal,
        }),
      );
      if (status.state !== 'ready') {
        const detail = [status.error, status.stderr?.trim()].filter(Boolean).join('\n');
        throw new BuiltinSkillError(
          'app_failed',
          ctx.skillId,
          `The app did not start (${status.state}): ${detail}`,
        );
      }
      const url = `http://127.0.0.1:${status.port}/`;
      const reachableFromHost = await skillStage(
        ctx,
        { name: 'health_check', detail: template.healthPath },
        () =>
          reachable(
            options.fetch ?? globalThis.fetch,
            { url: `${url}${template.healthPath.slice(1)}`, token: appId },
            ctx,
          ),
      );
      return {
        appId,
        template: templateId,
        url,
        port: status.port,
        dir,
        files,
        health: status.health,
        reachableFromHost,
      };
    },
  });
}

/** The page content: the model's design when there is a model and its reply is usable, else from the description. */
async function designOf(
  ctx: SkillContext,
  description: string,
): Promise<AppContent & { template?: AppTemplateId }> {
  const fallback = { title: titleOf(description), tagline: description, sections: [] };
  if (!ctx.invoker) return fallback;
  const reply = await ctx.generate(`App: ${description}`, { system: DESIGNER });
  try {
    const parsed = contentSchema.safeParse(parseJSONLoose(reply, { expect: 'object' }));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

function titleOf(description: string): string {
  const words = description.split(/\s+/).slice(0, 8).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The health check of one app: where it answers and the token its answer carries. */
interface HealthProbe {
  url: string;
  /** The app id, which the app's health answer echoes (it tells it from another server on the port). */
  token: string;
}

/** Whether this process gets the app's own health answer at `probe.url`. */
async function reachable(fetchImpl: typeof fetch, probe: HealthProbe, ctx: SkillContext): Promise<boolean> {
  const { url, token } = probe;
  const controller = new AbortController();
  const cancel = ctx.runtime.clock.setTimer(2000, () => controller.abort());
  try {
    const response = await fetchImpl(url, { signal: controller.signal });
    const body = (await response.json()) as { app?: unknown };
    return body.app === token;
  } catch {
    return false;
  } finally {
    cancel();
  }
}
