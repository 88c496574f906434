/**
 * The `app_builder` built-in skill, offline: it scaffolds a dependency-free
 * Node HTTP app from a template, starts it in the sandbox on a loopback port,
 * health-checks it, and returns its URL. This script then calls the app's
 * API and stops it.
 *
 *   npx tsx examples/skills-app-builder.ts
 *
 * With a LocalProcessSandbox the app is reachable from this process. Under a
 * BubblewrapSandbox it runs in a private network namespace: the skill still
 * health-checks it from inside, and reports `reachableFromHost: false`.
 */
import { SkillRegistry } from 'tandem-agents';
import { LocalProcessSandbox } from 'tandem-agents/sandbox';
import { AppHost, appBuilderSkill } from 'tandem-agents/skills';
import { ScriptedModel } from 'tandem-agents/testing';

const model = new ScriptedModel([
  {
    text: JSON.stringify({
      template: 'node-http',
      title: 'Reading list',
      tagline: 'Books to read next',
      sections: [{ heading: 'How it works', text: 'Add a book; it is kept while the app runs.' }],
    }),
  },
]);

const apps = new AppHost();
const sandbox = await LocalProcessSandbox.create();
try {
  const skills = new SkillRegistry({ skills: [appBuilderSkill({ apps })], model });
  const app = await skills.invokeDirect<{
    appId: string;
    url: string;
    files: string[];
    reachableFromHost: boolean;
  }>('app_builder', { description: 'a reading list app that stores books' }, { sandbox });
  console.log(`files: ${app.files.join(', ')}`);
  console.log(`app running (reachable from here: ${app.reachableFromHost})`);
  await fetch(`${app.url}api/items`, { method: 'POST', body: JSON.stringify({ name: 'Middlemarch' }) });
  const items = (await (await fetch(`${app.url}api/items`)).json()) as { name: string }[];
  console.log(`GET /api/items → ${items.map((i) => i.name).join(', ')}`);
  const page = await (await fetch(app.url)).text();
  console.log(`GET / → ${/<h1>(.*)<\/h1>/.exec(page)?.[1]}`);
  await apps.stop(app.appId);
  console.log(`stopped; still running: ${apps.ids().length}`);
} finally {
  await sandbox.dispose();
}
