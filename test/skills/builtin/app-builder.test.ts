import { describe, expect, it } from 'vitest';
import { LocalProcessSandbox } from '../../../src/sandbox/local.js';
import { APP_TEMPLATES, AppHost, appBuilderSkill } from '../../../src/skills/builtin/index.js';
import { SkillError, SkillRegistry } from '../../../src/skills/index.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { recorder } from '../helpers.js';
import { bwrap, createSandbox, stages } from './helpers.js';

type AppOut = {
  appId: string;
  template: string;
  url: string;
  port: number;
  dir: string;
  files: string[];
  health: { status: number; body: string };
  reachableFromHost: boolean;
};

const design = {
  template: 'node-http',
  title: 'Todo <list>',
  tagline: 'Things to do',
  sections: [{ heading: 'About', text: 'Keeps your items & more.' }],
};

const refused = (url: string) =>
  fetch(url).then(
    () => 'answered',
    () => 'refused',
  );

describe('app_builder on a local sandbox', () => {
  it('starts the scaffolded app, which answers HTTP requests from the host, and is gone after dispose', async () => {
    const model = new ScriptedModel([{ text: JSON.stringify(design) }]);
    const { runtime, bus, events } = recorder();
    const apps = new AppHost();
    const skills = new SkillRegistry({ skills: [appBuilderSkill({ apps })], model, runtime });
    const sandbox = await LocalProcessSandbox.create();
    let out: AppOut;
    try {
      out = await skills.invokeDirect<AppOut>(
        'app_builder',
        { description: 'a todo list that stores items' },
        { emit: bus, sandbox },
      );
      expect(out).toMatchObject({ template: 'node-http', reachableFromHost: true, health: { status: 200 } });
      expect(JSON.parse(out.health.body)).toEqual({ ok: true, app: out.appId });
      expect(out.files).toEqual(Object.keys(APP_TEMPLATES['node-http'].files).map((f) => `${out.dir}/${f}`));
      const page = await (await fetch(out.url)).text();
      expect(page).toContain('<h1>Todo &#60;list&#62;</h1>');
      expect(page).toContain('Keeps your items &#38; more.');
      const created = await fetch(`${out.url}api/items`, {
        method: 'POST',
        body: JSON.stringify({ name: 'milk' }),
      });
      expect(created.status).toBe(201);
      expect(await (await fetch(`${out.url}api/items`)).json()).toEqual([{ id: 1, name: 'milk' }]);
      expect(apps.ids()).toEqual([out.appId]);
    } finally {
      await sandbox.dispose();
    }
    expect(await refused(out.url)).toBe('refused');
    expect(apps.ids()).toEqual([]);
    expect(stages(events).filter((s) => s.endsWith(':completed'))).toEqual([
      'design:completed',
      'scaffold:completed',
      'start:completed',
      'health_check:completed',
    ]);
  });

  it('serves a static site chosen from the description without a model, and AppHost.stop ends it', async () => {
    const apps = new AppHost();
    const skills = new SkillRegistry({ skills: [appBuilderSkill({ apps })] });
    const sandbox = await LocalProcessSandbox.create();
    try {
      const out = await skills.invokeDirect<AppOut>(
        'app_builder',
        { description: 'landing page for a bakery', dir: 'site' },
        { sandbox },
      );
      expect(out).toMatchObject({ template: 'static-site', dir: 'site', reachableFromHost: true });
      expect(await (await fetch(out.url)).text()).toContain('<h1>Landing page for a bakery</h1>');
      expect((await fetch(`${out.url}style.css`)).headers.get('content-type')).toBe('text/css');
      expect((await fetch(`${out.url}..%2f..%2fpackage.json`)).status).toBe(404);
      expect(await apps.stop(out.appId)).toBe(true);
      expect(await refused(out.url)).toBe('refused');
      expect(await apps.stop(out.appId)).toBe(false);
    } finally {
      await sandbox.dispose();
    }
  });

  it('fails with app_failed, leaving nothing running, when the sandbox has no node', async () => {
    const apps = new AppHost();
    const skills = new SkillRegistry({ skills: [appBuilderSkill({ apps })] });
    const sandbox = await LocalProcessSandbox.create({ path: '/nonexistent' });
    try {
      const error = await skills
        .invokeDirect('app_builder', { description: 'an api' }, { sandbox })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SkillError);
      expect((error as SkillError).cause).toMatchObject({ kind: 'app_failed' });
      expect((error as Error).message).toContain('node is not available in the sandbox');
      expect(apps.ids()).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

describe.runIf(bwrap.available)('app_builder on a bubblewrap sandbox', () => {
  it('health-checks the app inside the sandbox, reports it unreachable from the host, and stops it on dispose', async () => {
    const apps = new AppHost();
    const skills = new SkillRegistry({ skills: [appBuilderSkill({ apps })] });
    const sandbox = await createSandbox('bwrap');
    let out: AppOut;
    try {
      out = await skills.invokeDirect<AppOut>(
        'app_builder',
        { description: 'an api for notes' },
        { sandbox },
      );
      expect(out).toMatchObject({ template: 'node-http', reachableFromHost: false, health: { status: 200 } });
      expect(JSON.parse(out.health.body)).toEqual({ ok: true, app: out.appId });
      expect(apps.ids()).toEqual([out.appId]);
    } finally {
      await sandbox.dispose();
    }
    expect(apps.ids()).toEqual([]);
  });
});
